/**
 * The conversation tree through the UI (DESIGN §2, §5): Edit makes a sibling user message,
 * Regenerate a sibling reply, Rewind to here… moves the leaf; version controls walk the siblings;
 * the branch that was showing survives a reload. Every request is checked for exactly the context
 * the branch holds. Also here: composer keys, thinking and markdown in replies, phone layout.
 */

import type { Page } from "@playwright/test";
import {
  animationsDone,
  assistantMessages,
  chatRequests,
  openConfigured,
  rewindTo,
  sendAndWait,
  userMessages,
  waitIdle,
} from "./app";
import {
  assistant,
  expectVersion,
  lastChat,
  message,
  sessionIdOf,
  sessionLinks,
  sessionList,
  turns,
  user,
} from "./branching-helpers";
import { expect, type MockServer, test } from "./fixtures";

/** A chat of `n` exchanges answered by the mock's echo: "Echo: <text>". */
async function chatOf(page: Page, mock: MockServer, texts: string[]): Promise<void> {
  await openConfigured(page, mock);
  for (const text of texts) await sendAndWait(page, text);
  await expect(userMessages(page)).toHaveCount(texts.length);
}

test.describe("edit", () => {
  test("editing a user message sends the edited text as a new sibling; Previous version restores the original branch", async ({
    page,
    mock,
  }) => {
    await chatOf(page, mock, ["What is a grove?", "Name three trees"]);

    const second = userMessages(page).nth(1);
    await second.getByRole("button", { name: "Edit" }).click();
    const box = second.getByRole("textbox", { name: "Edit message" });
    await expect(box).toHaveValue("Name three trees");
    await box.fill("Name four trees");
    mock.enqueue("anthropic", { text: "Oak, ash, elm and yew." });
    await second.getByRole("button", { name: "Save and send" }).click();

    await expect(message(page, "assistant", "Oak, ash, elm and yew.")).toBeVisible();
    await waitIdle(page);

    // The edited text went out, after the untouched first exchange, and nothing of the old branch.
    expect(chatRequests(mock, "anthropic")).toHaveLength(3);
    expect(turns(lastChat(mock))).toEqual([
      user("What is a grove?"),
      assistant("Echo: What is a grove?"),
      user("Name four trees"),
    ]);

    // The edited message is version 2 of 2; the old reply is off the active path.
    const edited = message(page, "user", "Name four trees");
    await expectVersion(edited, 2, 2);
    await expect(userMessages(page)).toHaveCount(2);
    await expect(assistantMessages(page)).toHaveCount(2);
    await expect(message(page, "assistant", "Echo: Name three trees")).toHaveCount(0);
    await expect(edited.getByRole("button", { name: "Next version" })).toBeDisabled();

    // Back to the original: its text and its reply are still there, unchanged.
    await edited.getByRole("button", { name: "Previous version" }).click();
    const original = message(page, "user", "Name three trees");
    await expect(original).toBeVisible();
    await expectVersion(original, 1, 2);
    await expect(original.getByRole("button", { name: "Previous version" })).toBeDisabled();
    await expect(message(page, "assistant", "Echo: Name three trees")).toBeVisible();
    await expect(message(page, "assistant", "Oak, ash, elm and yew.")).toHaveCount(0);
    await expect(message(page, "user", "What is a grove?")).toBeVisible();
    await expect(message(page, "assistant", "Echo: What is a grove?")).toBeVisible();

    // And forward again to the edit.
    await original.getByRole("button", { name: "Next version" }).click();
    await expect(message(page, "assistant", "Oak, ash, elm and yew.")).toBeVisible();
    await expectVersion(message(page, "user", "Name four trees"), 2, 2);
    // Switching versions sends nothing.
    expect(chatRequests(mock, "anthropic")).toHaveLength(3);
  });

  test("editing the first message starts a second root; both conversations stay reachable", async ({ page, mock }) => {
    await chatOf(page, mock, ["Plan a picnic", "Add dessert"]);
    const first = userMessages(page).first();
    await first.getByRole("button", { name: "Edit" }).click();
    await first.getByRole("textbox", { name: "Edit message" }).fill("Plan a hike");
    await first.getByRole("textbox", { name: "Edit message" }).press("Enter");
    await expect(message(page, "assistant", "Echo: Plan a hike")).toBeVisible();
    await waitIdle(page);

    expect(turns(lastChat(mock))).toEqual([user("Plan a hike")]);
    await expect(userMessages(page)).toHaveCount(1);
    await expectVersion(message(page, "user", "Plan a hike"), 2, 2);

    await message(page, "user", "Plan a hike").getByRole("button", { name: "Previous version" }).click();
    // The whole original conversation comes back, down to its last reply.
    await expect(userMessages(page)).toHaveCount(2);
    await expect(message(page, "assistant", "Echo: Add dessert")).toBeVisible();
    await expectVersion(message(page, "user", "Plan a picnic"), 1, 2);
  });

  test("Cancel leaves the message as it was and sends nothing", async ({ page, mock }) => {
    await chatOf(page, mock, ["Keep me"]);
    const msg = userMessages(page).first();
    await msg.getByRole("button", { name: "Edit" }).click();
    await msg.getByRole("textbox", { name: "Edit message" }).fill("Changed my mind");
    await msg.getByRole("button", { name: "Cancel" }).click();
    await expect(message(page, "user", "Keep me")).toBeVisible();
    await expect(message(page, "user", "Keep me").locator(".versions")).toHaveCount(0);
    expect(chatRequests(mock, "anthropic")).toHaveLength(1);
  });
});

test.describe("regenerate", () => {
  test("Regenerate adds a sibling reply to the same context; the version controls switch between replies", async ({
    page,
    mock,
  }) => {
    await openConfigured(page, mock);
    mock.enqueue("anthropic", { text: "First take." }, { text: "Second take." });
    await sendAndWait(page, "Tell me a tree fact");
    const firstReply = message(page, "assistant", "First take.");
    await expect(firstReply).toBeVisible();

    await firstReply.getByRole("button", { name: "Regenerate" }).click();
    const secondReply = message(page, "assistant", "Second take.");
    await expect(secondReply).toBeVisible();
    await waitIdle(page);

    const [a, b] = chatRequests(mock, "anthropic");
    expect(b?.body).toEqual(a?.body); // the very same request: same context, model, limits
    expect(turns(b)).toEqual([user("Tell me a tree fact")]);

    await expectVersion(secondReply, 2, 2);
    await expect(assistantMessages(page)).toHaveCount(1);
    await expect(userMessages(page)).toHaveCount(1);

    await secondReply.getByRole("button", { name: "Previous version" }).click();
    await expect(message(page, "assistant", "First take.")).toBeVisible();
    await expect(message(page, "assistant", "Second take.")).toHaveCount(0);
    await expectVersion(message(page, "assistant", "First take."), 1, 2);

    await message(page, "assistant", "First take.").getByRole("button", { name: "Next version" }).click();
    await expect(message(page, "assistant", "Second take.")).toBeVisible();
    await expectVersion(message(page, "assistant", "Second take."), 2, 2);
    expect(chatRequests(mock, "anthropic")).toHaveLength(2);
  });

  test("regenerating an earlier reply sends only the context up to it; the later exchange stays reachable", async ({
    page,
    mock,
  }) => {
    await chatOf(page, mock, ["Alpha", "Beta"]);
    mock.enqueue("anthropic", { text: "Alpha, take two." });
    await message(page, "assistant", "Echo: Alpha").getByRole("button", { name: "Regenerate" }).click();
    await expect(message(page, "assistant", "Alpha, take two.")).toBeVisible();
    await waitIdle(page);

    expect(turns(lastChat(mock))).toEqual([user("Alpha")]);
    await expect(userMessages(page)).toHaveCount(1);
    await expectVersion(message(page, "assistant", "Alpha, take two."), 2, 2);

    await message(page, "assistant", "Alpha, take two.").getByRole("button", { name: "Previous version" }).click();
    await expect(message(page, "assistant", "Echo: Beta")).toBeVisible();
    await expect(userMessages(page)).toHaveCount(2);
  });
});

test.describe("branch from here", () => {
  test("the next message continues from the chosen reply; the later exchanges stay reachable", async ({
    page,
    mock,
  }) => {
    await chatOf(page, mock, ["one", "two", "three"]);

    await rewindTo(message(page, "assistant", "Echo: one"));
    // The active path now ends at that reply; the composer is ready for the new direction.
    await expect(userMessages(page)).toHaveCount(1);
    await expect(assistantMessages(page)).toHaveCount(1);
    await expect(page.getByRole("textbox", { name: "Message", exact: true })).toBeFocused();
    // Changing one's mind before sending: the later messages are one click away.
    const bar = page.getByRole("status").filter({ hasText: "Branching from here" });
    await expect(bar).toContainText("4 later messages are kept");
    await bar.getByRole("button", { name: "Back to latest" }).click();
    await expect(userMessages(page)).toHaveCount(3);
    await expect(message(page, "assistant", "Echo: three")).toBeVisible();
    await expect(bar).toHaveCount(0);
    expect(chatRequests(mock, "anthropic")).toHaveLength(3);

    await rewindTo(message(page, "assistant", "Echo: one"));
    await expect(userMessages(page)).toHaveCount(1);

    await sendAndWait(page, "a different second step");
    expect(chatRequests(mock, "anthropic")).toHaveLength(4);
    expect(turns(lastChat(mock))).toEqual([user("one"), assistant("Echo: one"), user("a different second step")]);

    const fork = message(page, "user", "a different second step");
    await expectVersion(fork, 2, 2);
    await expect(message(page, "assistant", "Echo: a different second step")).toBeVisible();

    // The old continuation, down to its last reply, is one click away.
    await fork.getByRole("button", { name: "Previous version" }).click();
    await expect(userMessages(page)).toHaveCount(3);
    for (const t of ["one", "two", "three"]) {
      await expect(message(page, "user", t)).toBeVisible();
      await expect(message(page, "assistant", `Echo: ${t}`)).toBeVisible();
    }
    await expectVersion(message(page, "user", "two"), 1, 2);

    // Continuing on the old branch sends the old branch.
    await sendAndWait(page, "four");
    expect(turns(lastChat(mock))).toEqual([
      user("one"),
      assistant("Echo: one"),
      user("two"),
      assistant("Echo: two"),
      user("three"),
      assistant("Echo: three"),
      user("four"),
    ]);
  });

  test("reload keeps the session, the branch that was showing and the session list", async ({ page, mock }) => {
    await chatOf(page, mock, ["root question", "first follow-up"]);
    await rewindTo(message(page, "assistant", "Echo: root question"));
    await expect(userMessages(page)).toHaveCount(1);
    await sendAndWait(page, "second follow-up");
    await expectVersion(message(page, "user", "second follow-up"), 2, 2);
    // Show the older branch, then reload: that one must come back, not the newest.
    await message(page, "user", "second follow-up").getByRole("button", { name: "Previous version" }).click();
    await expect(message(page, "assistant", "Echo: first follow-up")).toBeVisible();
    const id = sessionIdOf(page);
    const url = page.url();

    await page.reload();
    expect(page.url()).toBe(url);
    expect(sessionIdOf(page)).toBe(id);
    await expect(message(page, "assistant", "Echo: first follow-up")).toBeVisible();
    await expectVersion(message(page, "user", "first follow-up"), 1, 2);
    await expect(message(page, "user", "second follow-up")).toHaveCount(0);
    await expect(sessionLinks(page)).toHaveCount(1);
    await expect(sessionLinks(page).first()).toContainText("root question");
    await expect(sessionLinks(page).first()).toHaveAttribute("aria-current", "page");

    // The other branch is still there after the reload, and the next message continues the shown one.
    await message(page, "user", "first follow-up").getByRole("button", { name: "Next version" }).click();
    await expect(message(page, "assistant", "Echo: second follow-up")).toBeVisible();
    await page.reload();
    await expect(message(page, "assistant", "Echo: second follow-up")).toBeVisible();
    await expectVersion(message(page, "user", "second follow-up"), 2, 2);
    await sendAndWait(page, "after reload");
    expect(turns(lastChat(mock))).toEqual([
      user("root question"),
      assistant("Echo: root question"),
      user("second follow-up"),
      assistant("Echo: second follow-up"),
      user("after reload"),
    ]);
  });
});

test.describe("while a reply streams", () => {
  test("Edit, Regenerate and Save and send wait for it (one reply per chat); Stop frees them", async ({
    page,
    mock,
  }) => {
    await chatOf(page, mock, ["first"]);
    // An edit box opened before the reply starts must not send while it streams.
    const firstUser = userMessages(page).first();
    await firstUser.getByRole("button", { name: "Edit" }).click();
    await firstUser.getByRole("textbox", { name: "Edit message" }).fill("first, edited");

    mock.enqueue("anthropic", { chunks: ["still ", "going"], fault: { kind: "hang", afterChunks: 1 } });
    await page.getByRole("textbox", { name: "Message", exact: true }).fill("second");
    await page.getByRole("textbox", { name: "Message", exact: true }).press("Enter");
    await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();

    await expect(firstUser.getByRole("button", { name: "Save and send" })).toBeDisabled();
    await firstUser.getByRole("textbox", { name: "Edit message" }).press("Enter");
    await firstUser.getByRole("button", { name: "Cancel" }).click();
    const firstReply = message(page, "assistant", "Echo: first");
    await expect(firstUser.getByRole("button", { name: "Edit" })).toBeDisabled();
    await expect(firstReply.getByRole("button", { name: "Regenerate" })).toBeDisabled();
    await expect(firstReply.getByRole("button", { name: "Copy" })).toBeEnabled();

    await page.getByRole("button", { name: "Stop" }).click();
    await waitIdle(page);
    // Nothing was sent or written by the blocked edit: one user message per exchange, no versions.
    expect(chatRequests(mock, "anthropic")).toHaveLength(2);
    await expect(userMessages(page)).toHaveCount(2);
    await expect(firstUser.locator(".versions")).toHaveCount(0);
    await expect(assistantMessages(page).last()).toContainText("still");

    // Afterwards the edit works and gets its reply.
    await expect(firstUser.getByRole("button", { name: "Edit" })).toBeEnabled();
    await firstUser.getByRole("button", { name: "Edit" }).click();
    await firstUser.getByRole("textbox", { name: "Edit message" }).fill("first, edited");
    await firstUser.getByRole("button", { name: "Save and send" }).click();
    await expect(message(page, "assistant", "Echo: first, edited")).toBeVisible();
    await expectVersion(message(page, "user", "first, edited"), 2, 2);
  });
});

test.describe("while a reply streams (versions)", () => {
  test("switching versions mid-reply: the streaming reply stays with its own branch and lands there", async ({
    page,
    mock,
  }) => {
    await chatOf(page, mock, ["root", "branch A"]);
    const second = userMessages(page).nth(1);
    await second.getByRole("button", { name: "Edit" }).click();
    await second.getByRole("textbox", { name: "Edit message" }).fill("branch B");
    await second.getByRole("button", { name: "Save and send" }).click();
    await expect(message(page, "assistant", "Echo: branch B")).toBeVisible();
    await waitIdle(page);

    mock.enqueue("anthropic", { chunks: ["B goes ", "on"], fault: { kind: "hang", afterChunks: 1 } });
    await page.getByRole("textbox", { name: "Message", exact: true }).fill("more on B");
    await page.getByRole("textbox", { name: "Message", exact: true }).press("Enter");
    await expect(page.locator('article[aria-busy="true"]')).toContainText("B goes");

    // Look at branch A while B's reply streams: A shows only its own messages.
    await message(page, "user", "branch B").getByRole("button", { name: "Previous version" }).click();
    await expect(message(page, "assistant", "Echo: branch A")).toBeVisible();
    await expect(page.locator('article[aria-busy="true"]')).toHaveCount(0);
    await expect(page.getByText("B goes")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();

    await page.getByRole("button", { name: "Stop" }).click();
    await waitIdle(page);
    // The user stays on A; the stopped reply is on B, after "more on B".
    await expect(message(page, "assistant", "Echo: branch A")).toBeVisible();
    await expect(userMessages(page)).toHaveCount(2);
    await message(page, "user", "branch A").getByRole("button", { name: "Next version" }).click();
    await expect(message(page, "user", "more on B")).toBeVisible();
    await expect(assistantMessages(page).last()).toContainText("B goes");
  });
});

test.describe("composer and replies", () => {
  test("Enter sends; Shift+Enter inserts a newline that is sent as part of the message", async ({ page, mock }) => {
    await openConfigured(page, mock);
    const box = page.getByRole("textbox", { name: "Message", exact: true });
    await box.click();
    await page.keyboard.type("first line");
    await page.keyboard.press("Shift+Enter");
    await page.keyboard.type("second line");
    await expect(box).toHaveValue("first line\nsecond line");
    expect(chatRequests(mock, "anthropic")).toHaveLength(0);

    await page.keyboard.press("Enter");
    await expect(assistantMessages(page)).toHaveCount(1);
    await waitIdle(page);
    await expect(box).toHaveValue("");
    expect(turns(lastChat(mock))).toEqual([user("first line\nsecond line")]);
    // Shown as two lines, not joined.
    const shown = userMessages(page).first().locator(".user-text");
    await expect(shown).toHaveText(/^first line\nsecond line$/, { useInnerText: true });
  });

  for (const api of ["anthropic", "openai"] as const) {
    test(`${api}: a thinking block is shown collapsed; its text appears only when expanded`, async ({ page, mock }) => {
      await openConfigured(page, mock, {
        model:
          api === "anthropic"
            ? { provider: "anthropic", id: "claude-sonnet-4-5" }
            : { provider: "openai", id: "o4-mini" },
      });
      mock.enqueue(api, { thinking: "The user wants a number. Forty-two fits.", text: "The answer is 42." });
      await sendAndWait(page, "Pick a number");
      const reply = message(page, "assistant", "The answer is 42.");
      const details = reply.locator("details");
      await expect(details).toHaveCount(1);
      await expect(details).not.toHaveAttribute("open", /.*/);
      await expect(details.locator("summary")).toHaveText("Thinking");
      await expect(reply.getByText("Forty-two fits.")).toBeHidden();

      await details.locator("summary").click();
      await expect(details).toHaveAttribute("open", /.*/);
      await expect(reply.getByText("Forty-two fits.")).toBeVisible();
      // Thinking is not part of the visible answer text.
      await expect(reply.locator(".message-body > :not(details)")).not.toContainText("Forty-two");
    });
  }

  test("markdown: a GFM table, a list and a code block with Copy code", async ({ page, mock }) => {
    await openConfigured(page, mock);
    mock.enqueue("anthropic", {
      text: [
        "Trees:",
        "",
        "| Tree | Height |",
        "|---|---|",
        "| Oak | 30 m |",
        "| Birch | 20 m |",
        "",
        "- roots",
        "- branches",
        "- leaves",
        "",
        "```ts",
        "const tree = grow('oak');",
        "```",
      ].join("\n"),
    });
    await sendAndWait(page, "Render things");
    const reply = assistantMessages(page).last();

    const table = reply.getByRole("table");
    await expect(table).toBeVisible();
    await expect(table.getByRole("columnheader")).toHaveText(["Tree", "Height"]);
    await expect(table.getByRole("row")).toHaveCount(3);
    await expect(table.getByRole("cell", { name: "Birch" })).toBeVisible();

    await expect(reply.getByRole("listitem")).toHaveText(["roots", "branches", "leaves"]);

    const code = reply.locator("pre code");
    await expect(code).toHaveText("const tree = grow('oak');");
    await expect(reply.getByRole("button", { name: "Copy code" })).toBeVisible();
    // No raw markdown left over.
    await expect(reply).not.toContainText("|---|");
    await expect(reply).not.toContainText("```");
  });
});

test.describe("layout", () => {
  test("phone width: messages and composer usable, sessions drawer opens with Show sessions", async ({
    page,
    mock,
  }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await openConfigured(page, mock);
    await sendAndWait(page, "Hello from a phone");
    const msg = message(page, "user", "Hello from a phone");
    await expect(msg).toBeInViewport();
    await expect(message(page, "assistant", "Echo: Hello from a phone")).toBeInViewport();

    // Nothing overflows sideways.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const composer = page.getByRole("textbox", { name: "Message", exact: true });
    await expect(composer).toBeInViewport();
    const box = await composer.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(200);
    await expect(page.getByRole("button", { name: "Send" })).toBeInViewport();

    // Message actions are reachable on a touch-width screen.
    await msg.getByRole("button", { name: "Edit" }).click();
    const editing = userMessages(page).first();
    await editing.getByRole("textbox", { name: "Edit message" }).fill("Hello again from a phone");
    await editing.getByRole("button", { name: "Save and send" }).click();
    await expect(message(page, "assistant", "Echo: Hello again from a phone")).toBeInViewport();
    await waitIdle(page);

    // The drawer is closed until asked for.
    await expect(sessionList(page)).not.toBeInViewport();
    await page.getByRole("button", { name: "Show sessions" }).click();
    await expect(sessionList(page)).toBeInViewport();
    await expect(sessionLinks(page).first()).toBeInViewport();
    await page.getByRole("button", { name: "New chat" }).click();
    await expect(sessionList(page)).not.toBeInViewport();
    await expect(userMessages(page)).toHaveCount(0);
  });

  test("screenshots: a branched conversation at desktop and phone width", async ({ page, mock }) => {
    await openConfigured(page, mock);
    mock.enqueue(
      "anthropic",
      { text: "A grove is a small group of trees, usually without undergrowth." },
      {
        text: "Three common grove trees:\n\n| Tree | Leaves |\n|---|---|\n| Oak | lobed |\n| Birch | toothed |\n\n```ts\nconst grove = ['oak', 'birch'];\n```",
      },
      { text: "Four trees: oak, birch, beech and lime — each a branch of its own." },
    );
    await sendAndWait(page, "What is a grove?");
    await sendAndWait(page, "Name three trees that grow in groves, with a table");
    const second = userMessages(page).nth(1);
    await second.getByRole("button", { name: "Edit" }).click();
    await second.getByRole("textbox", { name: "Edit message" }).fill("Name four trees instead");
    await second.getByRole("button", { name: "Save and send" }).click();
    await expect(message(page, "assistant", "Four trees")).toBeVisible();
    await waitIdle(page);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: "test-results/e2e-artifacts/branching-desktop.png" });

    await page.setViewportSize({ width: 390, height: 800 });
    await animationsDone(page);
    await page.screenshot({ path: "test-results/e2e-artifacts/branching-phone.png" });
    await page.getByRole("button", { name: "Show sessions" }).click();
    await animationsDone(page);
    await page.screenshot({ path: "test-results/e2e-artifacts/branching-phone-drawer.png" });
    await expect(sessionList(page)).toBeInViewport();

    // The branch-point bar, at phone width and at desktop width.
    await page.getByRole("button", { name: "Close sessions" }).click({ position: { x: 360, y: 400 } });
    await expect(sessionList(page)).not.toBeInViewport();
    await rewindTo(message(page, "assistant", "A grove is"));
    await expect(page.getByRole("status").filter({ hasText: "Branching from here" })).toBeVisible();
    await animationsDone(page);
    await page.screenshot({ path: "test-results/e2e-artifacts/branching-phone-branch-point.png" });
    await page.setViewportSize({ width: 1280, height: 720 });
    await animationsDone(page);
    await page.screenshot({ path: "test-results/e2e-artifacts/branching-desktop-branch-point.png" });
  });
});
