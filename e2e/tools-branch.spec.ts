/**
 * Branching inside a tool loop (issue 28 item 5: "every step a node of the tree: a user can branch, edit
 * or regenerate from any step"). A three-step loop against server-everything, then Regenerate on the
 * reply of step 2, and "Rewind to here…" on step 1's reply: the new branch's request carries steps
 * before it only, every tool_use answered, and the old branch stays as a sibling (versions, graph).
 */
import type { Locator, Page } from "@playwright/test";
import { chatRequests, openHistoryGraph, rewindTo, send, waitIdle } from "./app";
import { expectVersion, message } from "./branching-helpers";
import { expect, type MockServer, test } from "./fixtures";
import { blocksOf, chatWithEverything, expectPairsWhole, resultText } from "./tools-helpers";

const SHOTS = "test-results/tools-branch";

/** Three steps (echo, get-sum, get-sum) and the answer, every call allowed in this chat. */
async function threeStepLoop(page: Page, mock: MockServer): Promise<void> {
  mock.enqueue(
    "anthropic",
    { text: "Step one.", toolCalls: [{ name: "local__echo", input: { message: "one" } }] },
    { text: "Step two.", toolCalls: [{ name: "local__get-sum", input: { a: 2, b: 3 } }] },
    { text: "Step three.", toolCalls: [{ name: "local__get-sum", input: { a: 5, b: 5 } }] },
    { text: "All done: 5 and 10." },
  );
  await send(page, "Use the tools");
  const approval = page.getByRole("dialog", { name: "Allow tool call?" });
  await approval.getByRole("button", { name: "Allow in this chat" }).click();
  await expect(approval).toContainText("get-sum", { timeout: 15_000 });
  await approval.getByRole("button", { name: "Allow in this chat" }).click();
  await expect(page.getByText("All done: 5 and 10.")).toBeVisible({ timeout: 20_000 });
  await waitIdle(page);
  expect(chatRequests(mock, "anthropic")).toHaveLength(4);
}

/** The text of each message of a request, its tool blocks as `tool_use:<name>` / `tool_result:<text>`. */
function shape(body: unknown): string[] {
  return blocksOf(body).map(({ role, block }) => {
    if (block.type === "tool_use") return `${role} tool_use:${block.name}`;
    if (block.type === "tool_result") return `${role} tool_result:${resultText(block)}`;
    return `${role} ${block.type}:${(block as { text?: string }).text ?? ""}`;
  });
}

/** The request after step 1, as `shape` lists it: the user's message and step 1 with its pair whole. */
const STEP_ONE = [
  "user text:Use the tools",
  "assistant text:Step one.",
  "assistant tool_use:local__echo",
  "user tool_result:Echo: one",
];

/** The history graph, opened and fitted to the whole tree. */
async function fittedGraph(page: Page) {
  await openHistoryGraph(page);
  const graph = page.getByRole("region", { name: "History graph" });
  await graph.getByRole("button", { name: "Fit" }).click();
  return graph;
}

test("Regenerate on step 2 of a three-step loop: the new branch sends step 1 only, the old one is a sibling", async ({
  page,
  mock,
  mcp,
}) => {
  await chatWithEverything(page, mock, mcp.everything.url);
  await threeStepLoop(page, mock);

  mock.enqueue(
    "anthropic",
    { text: "Step two, again.", toolCalls: [{ name: "local__echo", input: { message: "again" } }] },
    { text: "Done differently." },
  );
  await message(page, "assistant", "Step two.").getByRole("button", { name: "Regenerate" }).click();
  await expect(page.getByText("Done differently.")).toBeVisible({ timeout: 20_000 });
  await waitIdle(page);

  const sent = chatRequests(mock, "anthropic");
  expect(sent).toHaveLength(6);
  // The regenerated step's request: the user's message and step 1, its pair whole; nothing of steps 2 and 3.
  const regenerated = sent[4]?.body;
  expectPairsWhole(regenerated);
  expect(shape(regenerated)).toEqual(STEP_ONE);
  // The loop goes on along the new branch: its own step, answered, then the answer.
  expectPairsWhole(sent[5]?.body);
  expect(shape(sent[5]?.body).slice(4)).toEqual([
    "assistant text:Step two, again.",
    "assistant tool_use:local__echo",
    "user tool_result:Echo: again",
  ]);

  // On screen: step 1, the new step 2 (version 2 of 2), no trace of the old steps 2 and 3.
  const again = message(page, "assistant", "Step two, again.");
  await expectVersion(again, 2, 2);
  await expect(page.getByText("Step three.")).toHaveCount(0);
  await expect(page.getByRole("group", { name: "Tool call: echo" })).toHaveCount(2);
  await expect(page.getByRole("group", { name: "Tool call: get-sum" })).toHaveCount(0);
  await page.locator(".message-scroll").screenshot({ path: `${SHOTS}/regenerated-step.png` });

  // The old branch is kept: version 1 of 2 is step 2 as it was, its loop whole up to the old answer.
  await again.getByRole("button", { name: "Previous version" }).click();
  await expect(page.getByText("All done: 5 and 10.")).toBeVisible();
  await expectVersion(message(page, "assistant", "Step two."), 1, 2);
  await expect(page.getByRole("group", { name: "Tool call: get-sum" })).toHaveCount(2);
  // Switching versions sends nothing.
  expect(chatRequests(mock, "anthropic")).toHaveLength(6);

  // In the graph both answers are leaves of one tree.
  const graph = await fittedGraph(page);
  await expectShownOnce(graph, "All done: 5 and 10.");
  await expectShownOnce(graph, "Done differently.");
  await graph.screenshot({ path: `${SHOTS}/graph.png` });
});

test("Rewind to step 1's reply: Continue runs its call again on a new branch with step 1's request only", async ({
  page,
  mock,
  mcp,
}) => {
  await chatWithEverything(page, mock, mcp.everything.url);
  await threeStepLoop(page, mock);

  await rewindTo(message(page, "assistant", "Step one."));
  // The path ends on a reply whose call has no result yet: the loop can go on from there.
  await expect(page.getByText("All done: 5 and 10.")).toHaveCount(0);
  await expect(page.getByText("Step two.")).toHaveCount(0);
  mock.enqueue("anthropic", { text: "A new ending." });
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("A new ending.")).toBeVisible({ timeout: 20_000 });
  await waitIdle(page);

  const sent = chatRequests(mock, "anthropic");
  expect(sent).toHaveLength(5);
  const next = sent[4]?.body;
  expectPairsWhole(next);
  expect(shape(next)).toEqual(STEP_ONE);
  // Step 1's call ran again on the new branch: a second result beside the old one, the old branch kept.
  const step2 = message(page, "assistant", "A new ending.");
  await expect(step2).toBeVisible();
  const graph = await fittedGraph(page);
  await expectShownOnce(graph, "All done: 5 and 10.");
});

/**
 * A node the graph shows once after Fit: its row in the outline when the tree is too big to label
 * (the keyboard tree then still shows its current item, under the outline), else its own box.
 */
async function expectShownOnce(graph: Locator, text: string): Promise<void> {
  await expect
    .poll(async () => {
      const inOutline = await graph.locator(".goutline-item:visible").filter({ hasText: text }).count();
      if (inOutline > 0 || (await graph.locator(".goutline-item:visible").count()) > 0) return inOutline;
      return graph.locator('[role="treeitem"]:visible').filter({ hasText: text }).count();
    })
    .toBe(1);
}
