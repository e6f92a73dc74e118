/**
 * Grove's own tools (issue 28 item 3), end to end: "Search my chats" and "Read a chat" switched on in
 * the composer's Tools menu; the mock provider calls search_my_chats, then read_chat with the id the
 * search gave, and the results it is sent hold another chat's words. They run without an approval
 * (they read this browser's chats only) and nothing else is sent.
 */
import { chatRequests, openConfigured, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";
import { blocksOf, chooseTool, expectPairsWhole, resultText } from "./tools-helpers";

const SHOTS = "test-results/tools-grove";

test("Search my chats + Read a chat: the model finds another chat and reads it; no approval asked", async ({
  page,
  mock,
}) => {
  test.setTimeout(90_000);
  await openConfigured(page, mock);
  mock.enqueue("anthropic", { text: "Zebrafish regrow their hearts in about sixty days." });
  await send(page, "Tell me about zebrafish hearts");
  await expect(page.getByText("about sixty days")).toBeVisible({ timeout: 15_000 });
  await waitIdle(page);
  const first = /#\/s\/([^/?]+)/.exec(page.url())?.[1];
  expect(first).toBeTruthy();
  // The search index has the chat (what the sidebar's search finds, the tool finds).
  await page.getByRole("searchbox", { name: "Search chats" }).fill("zebrafish");
  await expect(page.getByRole("listbox", { name: "Search results" }).getByRole("option").first()).toBeVisible({
    timeout: 15_000,
  });
  await page.getByRole("searchbox", { name: "Search chats" }).fill("");

  await page.getByRole("button", { name: "New chat" }).click();
  await chooseTool(page, "Search my chats");
  await chooseTool(page, "Read a chat");
  await page.getByRole("button", { name: "Tools" }).click();
  await page.getByRole("menu", { name: "Tools" }).screenshot({ path: `${SHOTS}/tools-menu.png` });
  await page.keyboard.press("Escape");

  mock.enqueue(
    "anthropic",
    { toolCalls: [{ name: "search_my_chats", input: { query: "zebrafish" } }] },
    { toolCalls: [{ name: "read_chat", input: { chat_id: first } }] },
    { text: "You asked about zebrafish hearts: about sixty days." },
  );
  await send(page, "What did I ask about fish before?");
  await expect(page.getByText("You asked about zebrafish hearts: about sixty days.")).toBeVisible({
    timeout: 20_000,
  });
  await waitIdle(page);
  await expect(page.getByRole("dialog", { name: "Allow tool call?" })).toHaveCount(0);

  const sent = chatRequests(mock, "anthropic");
  const loop = sent.slice(-3);
  const body = loop[0]?.body as { tools?: { name: string }[] } | undefined;
  const declared = body?.tools?.map((t) => t.name) ?? [];
  expect(declared).toEqual(["search_my_chats", "read_chat"]);
  const [searched, read] = [loop[1], loop[2]].map((r) => {
    const results = blocksOf(r?.body).filter((b) => b.block.type === "tool_result");
    return resultText(results.at(-1)?.block ?? { type: "" });
  });
  expect(searched).toContain(`chat_id ${first}`);
  expect(searched).toContain("zebrafish");
  expect(read).toContain("Zebrafish regrow their hearts in about sixty days.");
  expect(read).toContain("user: Tell me about zebrafish hearts");
  expectPairsWhole(loop[2]?.body);

  const search = page.getByRole("group", { name: "Tool call: search_my_chats" });
  await search.locator("summary").click();
  await expect(search).toContainText("zebrafish");
  await page.locator(".message-scroll").screenshot({ path: `${SHOTS}/grove-tools-loop.png` });
});
