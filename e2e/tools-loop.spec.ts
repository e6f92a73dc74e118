/**
 * Tools in the chat (issue 28 round 2), end to end: a real MCP server (server-everything over
 * Streamable HTTP, started by the `mcp` fixture), the mock provider speaking Anthropic tool calls, and
 * the app as a user drives it — Settings › Tools, the composer's Tools menu, the approval dialog, the
 * loop's steps in the chat, Stop, Deny and the step limit's Continue. The mock's recorded requests
 * show what the model was sent (every tool_use answered by its tool_result).
 */
import { chatRequests, meterBox, openConfigured, send, waitIdle } from "./app";
import { expect, test } from "./fixtures";
import {
  addServer,
  blocksOf,
  chatWithEverything,
  closeSettings,
  expectPairsWhole,
  resultText,
  toolShareTokens,
} from "./tools-helpers";

const SHOTS = "test-results/tools-loop";

test("Settings › Tools: a server connects and lists its tools; a wrong token says 401", async ({ page, mock, mcp }) => {
  await openConfigured(page, mock);
  await addServer(page, mcp.everything.url);
  const dialog = page.getByRole("dialog", { name: "Settings" });
  const everything = dialog.getByRole("listitem").filter({ hasText: "local" }).first();
  await expect(everything.getByRole("status")).toHaveText(/^Connected · \d+ tools$/, { timeout: 20_000 });

  mcp.files.setToken("right-token");
  const tools = dialog.getByRole("region", { name: "Tools" });
  await tools.getByLabel("Server URL").fill(mcp.files.url);
  await tools.getByLabel("Headers").fill("Authorization: Bearer wrong-token");
  await tools.getByRole("button", { name: "Add MCP server" }).click();
  const files = dialog.getByRole("listitem").filter({ hasText: "local2" });
  await expect(files.getByRole("status")).toContainText("refused the credentials (401)", { timeout: 20_000 });
  // The token is never shown back, nor in the reason.
  await expect(dialog).not.toContainText("wrong-token");
  await tools.screenshot({ path: `${SHOTS}/tools-settings.png` });
});

test("a three-step loop: Allow once, Allow in this chat, results go back paired, the answer ends it", async ({
  page,
  mock,
  mcp,
}) => {
  await chatWithEverything(page, mock, mcp.everything.url);
  mock.enqueue(
    "anthropic",
    { text: "Let me echo.", toolCalls: [{ name: "local__echo", input: { message: "one" } }] },
    { toolCalls: [{ name: "local__get-sum", input: { a: 2, b: 3 } }] },
    { toolCalls: [{ name: "local__get-sum", input: { a: 5, b: 5 } }] },
    { text: "All done: 5 and 10." },
  );
  await send(page, "Use the tools");

  const approval = page.getByRole("dialog", { name: "Allow tool call?" });
  await expect(approval).toBeVisible({ timeout: 15_000 });
  await expect(approval).toContainText("echo");
  await expect(approval).toContainText('"message": "one"');
  await approval.screenshot({ path: `${SHOTS}/approval.png` });
  await approval.getByRole("button", { name: "Allow once" }).click();

  await expect(approval).toContainText("get-sum", { timeout: 15_000 });
  await approval.getByRole("button", { name: "Allow in this chat" }).click();
  // The third call (get-sum again) runs without asking.
  await expect(page.getByText("All done: 5 and 10.")).toBeVisible({ timeout: 20_000 });
  await waitIdle(page);
  await expect(approval).toBeHidden();

  const echo = page.getByRole("group", { name: "Tool call: echo" });
  await expect(echo).toHaveCount(1);
  await echo.locator("summary").click();
  await expect(echo).toContainText("Echo: one");
  const sums = page.getByRole("group", { name: "Tool call: get-sum" });
  await expect(sums).toHaveCount(2);
  await sums.nth(1).locator("summary").click();
  await expect(sums.nth(1)).toContainText("The sum of 5 and 5 is 10.");
  await page.locator(".message-scroll").screenshot({ path: `${SHOTS}/finished-loop.png` });

  const sent = chatRequests(mock, "anthropic");
  expect(sent).toHaveLength(4);
  const last = sent[3]?.body;
  expectPairsWhole(last);
  const results = blocksOf(last).filter((b) => b.block.type === "tool_result");
  expect(results.map((r) => resultText(r.block))).toEqual([
    "Echo: one",
    "The sum of 2 and 3 is 5.",
    "The sum of 5 and 5 is 10.",
  ]);
  // The server's tools were declared.
  const declared = (sent[0]?.body as { tools?: { name: string }[] } | undefined)?.tools ?? [];
  expect(declared.map((t) => t.name)).toContain("local__echo");
});

test("Deny: the model is told the user declined, and the loop goes on to its answer", async ({ page, mock, mcp }) => {
  await chatWithEverything(page, mock, mcp.everything.url);
  mock.enqueue(
    "anthropic",
    { toolCalls: [{ name: "local__echo", input: { message: "secret" } }] },
    { text: "Understood, I will not." },
  );
  await send(page, "Echo something");
  const approval = page.getByRole("dialog", { name: "Allow tool call?" });
  await approval.getByRole("button", { name: "Deny" }).click();
  await expect(page.getByText("Understood, I will not.")).toBeVisible({ timeout: 15_000 });
  await waitIdle(page);
  const sent = chatRequests(mock, "anthropic");
  expect(sent).toHaveLength(2);
  expectPairsWhole(sent[1]?.body);
  const result = blocksOf(sent[1]?.body).find((b) => b.block.type === "tool_result");
  expect(resultText(result?.block ?? { type: "" })).toBe("The user declined this tool call");
  expect((result?.block as { is_error?: boolean } | undefined)?.is_error).toBe(true);
});

test("Stop mid-loop cancels the running call, keeps what arrived, and offers Continue", async ({ page, mock, mcp }) => {
  await chatWithEverything(page, mock, mcp.everything.url);
  mock.enqueue(
    "anthropic",
    {
      text: "Starting a long job.",
      toolCalls: [{ name: "local__trigger-long-running-operation", input: { duration: 30, steps: 30 } }],
    },
    { text: "Picked up where we left off." },
  );
  await send(page, "Run the long job");
  await page.getByRole("dialog", { name: "Allow tool call?" }).getByRole("button", { name: "Allow once" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Running tools…" })).toBeVisible({ timeout: 15_000 });
  await page.getByRole("button", { name: "Stop" }).click();
  await waitIdle(page);

  await expect(page.getByText("Starting a long job.")).toBeVisible();
  const step = page.getByRole("group", { name: "Tool call: trigger-long-running-operation" });
  await step.locator("summary").click();
  await expect(step).toContainText("stopped the conversation before this tool call finished");
  await expect(page.getByText("The tool loop was stopped before the model answered.")).toBeVisible();
  expect(chatRequests(mock, "anthropic")).toHaveLength(1);

  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Picked up where we left off.")).toBeVisible({ timeout: 15_000 });
  await waitIdle(page);
  const sent = chatRequests(mock, "anthropic");
  expect(sent).toHaveLength(2);
  expectPairsWhole(sent[1]?.body);
});

test("the step limit stops the loop and Continue goes on; a reload keeps the steps and the offer", async ({
  page,
  mock,
  mcp,
}) => {
  await chatWithEverything(page, mock, mcp.everything.url);
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("Step limit").fill("2");
  await dialog.getByLabel("Step limit").press("Enter");
  await closeSettings(page);

  mock.enqueue(
    "anthropic",
    { toolCalls: [{ name: "local__echo", input: { message: "a" } }] },
    { toolCalls: [{ name: "local__echo", input: { message: "b" } }] },
    { text: "Finished after the limit." },
  );
  await send(page, "Loop a lot");
  const approval = page.getByRole("dialog", { name: "Allow tool call?" });
  await approval.getByRole("button", { name: "Allow in this chat" }).click();
  await expect(page.getByText("The tool loop stopped at its step limit (2 model calls).")).toBeVisible({
    timeout: 20_000,
  });
  expect(chatRequests(mock, "anthropic")).toHaveLength(2);
  await expect(page.getByRole("group", { name: "Tool call: echo" })).toHaveCount(2);

  await page.reload();
  await expect(page.getByRole("group", { name: "Tool call: echo" })).toHaveCount(2, { timeout: 15_000 });
  await expect(page.getByText("The tool loop ended before the model answered.")).toBeVisible();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Finished after the limit.")).toBeVisible({ timeout: 20_000 });
  await waitIdle(page);
  const sent = chatRequests(mock, "anthropic");
  expect(sent).toHaveLength(3);
  expectPairsWhole(sent[2]?.body);
});

test("the context meter shows the tools' definitions as their own share, gone when the tools are", async ({
  page,
  mock,
  mcp,
}) => {
  await chatWithEverything(page, mock, mcp.everything.url);
  mock.enqueue("anthropic", { text: "Plain answer." });
  await send(page, "Hello");
  await expect(page.getByText("Plain answer.")).toBeVisible({ timeout: 15_000 });
  await waitIdle(page);

  const share = await toolShareTokens(page);
  // About the size of the definitions the request declared (JSON at about 4 characters a token).
  const body = chatRequests(mock, "anthropic")[0]?.body as { tools?: unknown[] } | undefined;
  const declared = JSON.stringify(body?.tools ?? []);
  expect(share).toBeGreaterThan(declared.length / 8);
  expect(share).toBeLessThan(declared.length / 2);
  await expect(page.getByTestId("meter-tools")).toContainText("tools");
  await expect(meterBox(page)).toHaveAttribute("title", /definitions of this chat's tools/);
  await meterBox(page).screenshot({ path: `${SHOTS}/meter-tool-share.png` });

  await page.getByRole("button", { name: "Tools" }).click();
  await page.getByRole("menu", { name: "Tools" }).getByRole("menuitemcheckbox", { name: "local" }).click();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("meter-tools")).toHaveCount(0);
  await expect(meterBox(page)).not.toHaveAttribute("title", /definitions of this chat's tools/);
});

test("parallel calls: two calls in one step, asked one at a time, both results go back in one message", async ({
  page,
  mock,
  mcp,
}) => {
  await chatWithEverything(page, mock, mcp.everything.url);
  mock.enqueue(
    "anthropic",
    {
      toolCalls: [
        { name: "local__echo", input: { message: "left" } },
        { name: "local__get-sum", input: { a: 1, b: 2 } },
      ],
    },
    { text: "Both came back." },
  );
  await send(page, "Do two things at once");
  const approval = page.getByRole("dialog", { name: "Allow tool call?" });
  await expect(approval).toContainText("echo", { timeout: 15_000 });
  await approval.getByRole("button", { name: "Allow once" }).click();
  await expect(approval).toContainText("get-sum", { timeout: 15_000 });
  await approval.getByRole("button", { name: "Allow once" }).click();
  await expect(page.getByText("Both came back.")).toBeVisible({ timeout: 20_000 });
  await waitIdle(page);

  await expect(page.getByRole("group", { name: "Tool call: echo" })).toHaveCount(1);
  await expect(page.getByRole("group", { name: "Tool call: get-sum" })).toHaveCount(1);
  const sent = chatRequests(mock, "anthropic");
  expect(sent).toHaveLength(2);
  expectPairsWhole(sent[1]?.body);
  const body = sent[1]?.body as { messages: { role: string; content: unknown }[] } | undefined;
  const answers = (body?.messages.at(-1)?.content ?? []) as { type: string; content?: unknown }[];
  expect(answers.filter((b) => b.type === "tool_result").map((b) => resultText(b))).toEqual([
    "Echo: left",
    "The sum of 1 and 2 is 3.",
  ]);
});
