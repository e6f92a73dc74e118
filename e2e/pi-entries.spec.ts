import { importText, openConfigured, sendAndWait } from "./app";
import { expect, test } from "./fixtures";
import { requestMessages } from "./mock-server/index";
import { PI_USAGE, piAssistant, piBase, piHeader, piJsonl, piMessage } from "./pi-session";

const SHOTS = "test-results/pi-entries";
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

function piSession(): string {
  const usage = { ...PI_USAGE, cost: { input: 0.01, output: 0.02, cacheRead: 0, cacheWrite: 0, total: 0.03 } };
  const reply = (text: string) => piAssistant([{ type: "text", text }], "stop", usage);
  return piJsonl([
    piHeader("pi-entries-e2e", "/work/app"),
    piMessage("u1", null, 1, {
      role: "user",
      content: [
        { type: "text", text: "Why do the tests fail?" },
        { type: "image", data: PNG, mimeType: "image/png" },
      ],
    }),
    piMessage("a1", "u1", 2, reply("Let me see the output.")),
    { type: "model_change", ...piBase("m1", "a1", 3), provider: "openai", modelId: "gpt-5" },
    { type: "thinking_level_change", ...piBase("th1", "m1", 4), thinkingLevel: "high" },
    piMessage("b1", "th1", 5, {
      role: "bashExecution",
      command: "npm test",
      output: "FAIL src/app.test.ts\n  expected 2, got 3",
      exitCode: 1,
      cancelled: false,
      truncated: false,
    }),
    {
      type: "custom_message",
      ...piBase("n1", "b1", 6),
      customType: "todo-reminder",
      content: "Open todo: fix the off-by-one.",
      display: true,
    },
    {
      type: "custom_message",
      ...piBase("n2", "n1", 7),
      customType: "hidden-context",
      content: "Hidden extension context.",
      display: false,
    },
    { type: "model_change", ...piBase("m2", "n2", 8), provider: "anthropic", modelId: "claude-sonnet-4-5" },
    piMessage("u2", "m2", 9, { role: "user", content: "Fix it." }),
    piMessage("a2", "u2", 10, reply("Fixed the off-by-one.")),
  ]);
}

test("an imported pi session shows setting markers and a collapsed command block, and sends what pi sends", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock);
  await importText(page, "session.jsonl", piSession());
  await expect(page.getByText(/^Imported “Why do the tests fail\?” from a pi session file\.$/)).toBeVisible();

  await expect(page.getByRole("note", { name: "Model: gpt-5 (openai)" })).toBeVisible();
  await expect(page.getByRole("note", { name: "Thinking: high" })).toBeVisible();
  const command = page.getByRole("article", { name: "Command: npm test" });
  await expect(command).toBeVisible();
  const toggle = command.getByRole("button", { name: /npm test/ });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(command.getByText("expected 2, got 3")).toHaveCount(0);
  await expect(command.getByText("exit 1")).toBeVisible();
  await expect(page.getByRole("article", { name: /^Note \(todo-reminder\)/ })).toBeVisible();
  await expect(page.getByText("Hidden extension context.")).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/collapsed.png`, fullPage: true });

  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(command.getByText(/expected 2, got 3/)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/expanded.png`, fullPage: true });

  await page.getByRole("button", { name: "History graph", exact: true }).click();
  const graph = page.getByRole("region", { name: "History graph" });
  const nodes = graph.getByRole("tree").getByRole("treeitem");
  await expect(nodes.filter({ hasText: "Model: gpt-5 (openai)" })).toHaveCount(1);
  await expect(nodes.filter({ hasText: "Thinking: high" })).toHaveCount(1);
  await expect(nodes.filter({ hasText: "$ npm test" })).toHaveCount(1);
  await page.screenshot({ path: `${SHOTS}/graph.png` });
  await page.getByRole("button", { name: "History graph", exact: true }).click();

  await sendAndWait(page, "Now run it again.");
  const chat = mock
    .requests({ api: "anthropic" })
    .filter((r) => r.method === "POST" && r.path.endsWith("/messages"))
    .at(-1);
  if (!chat) throw new Error("no request");
  const sent = JSON.stringify(requestMessages(chat));
  // pi's own text for the command run, and both notes (display only decides what is shown).
  expect(sent).toContain("Ran `npm test`");
  expect(sent).toContain("Command exited with code 1");
  expect(sent).toContain("Open todo: fix the off-by-one.");
  expect(sent).toContain("Hidden extension context.");
  // Setting changes are metadata: never sent.
  expect(sent).not.toContain("gpt-5");
  expect(sent).not.toContain("Thinking: high");
});
