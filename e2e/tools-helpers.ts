/**
 * Helpers for the tool specs (e2e/tools-*.spec.ts): Settings › Tools, the composer's Tools menu, a
 * chat on the mock with server-everything chosen, and readers that check a request's tool pairs.
 */
import type { Page } from "@playwright/test";
import { openConfigured, send, waitIdle } from "./app";
import { expect, type MockServer } from "./fixtures";
import type { ReplyScript } from "./mock-server/types";

/** Settings › Tools: adds a server by URL (and headers), waits for its list item. */
export async function addServer(page: Page, url: string, headers = ""): Promise<void> {
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  const tools = dialog.getByRole("region", { name: "Tools" });
  await tools.getByLabel("Server URL").fill(url);
  if (headers) await tools.getByLabel("Headers").fill(headers);
  await tools.getByRole("button", { name: "Add MCP server" }).click();
}

export async function closeSettings(page: Page): Promise<void> {
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
}

/** The composer's Tools menu: ticks `name`. */
export async function chooseTool(page: Page, name: string): Promise<void> {
  await page.getByRole("button", { name: "Tools" }).click();
  const menu = page.getByRole("menu", { name: "Tools" });
  await menu.getByRole("menuitemcheckbox", { name }).click();
  await expect(menu.getByRole("menuitemcheckbox", { name })).toHaveAttribute("aria-checked", "true");
  await page.keyboard.press("Escape");
}

/** A chat on the mock with server-everything added, connected, and chosen in the Tools menu. */
export async function chatWithEverything(page: Page, mock: MockServer, url: string): Promise<void> {
  await openConfigured(page, mock);
  await addServer(page, url);
  const item = page.getByRole("listitem").filter({ hasText: "local" });
  await expect(item.getByRole("status")).toHaveText(/^Connected · \d+ tools$/, { timeout: 20_000 });
  await closeSettings(page);
  await chooseTool(page, "local");
}

type Block = { type: string; id?: string; tool_use_id?: string; content?: unknown; name?: string };
type Msg = { role: string; content: string | Block[] };

/** The request's messages' blocks, in order. */
export function blocksOf(body: unknown): { role: string; block: Block }[] {
  const messages = (body as { messages: Msg[] }).messages;
  return messages.flatMap((m) =>
    typeof m.content === "string" ? [] : m.content.map((block) => ({ role: m.role, block })),
  );
}

/** Every tool_use in a request is answered by a tool_result at the start of the next user message. */
export function expectPairsWhole(body: unknown): void {
  const messages = (body as { messages: Msg[] }).messages;
  messages.forEach((m, i) => {
    if (typeof m.content === "string" || m.role !== "assistant") return;
    const uses = m.content.filter((b) => b.type === "tool_use").map((b) => b.id);
    if (uses.length === 0) return;
    const next = messages[i + 1];
    const answered =
      next && typeof next.content !== "string"
        ? next.content.filter((b) => b.type === "tool_result").map((b) => b.tool_use_id)
        : [];
    expect(answered).toEqual(uses);
  });
}

export const resultText = (b: Block): string =>
  typeof b.content === "string"
    ? b.content
    : Array.isArray(b.content)
      ? (b.content as { text?: string }[]).map((c) => c.text ?? "").join("")
      : "";

type ChatMsg = { role: string; tool_calls?: { id: string }[]; tool_call_id?: string };
type InputItem = { type?: string; role?: string; call_id?: string };

/**
 * OpenAI (Chat Completions or Responses): every call is answered by its result right after the calls
 * of its turn, and every result answers a call just before it — no split tool pair.
 */
export function expectOpenAiPairsWhole(body: unknown): void {
  const input = (body as { input?: InputItem[] }).input;
  if (Array.isArray(input)) {
    let open: string[] = [];
    let answering = false;
    for (const item of input) {
      if (item.type === "function_call") {
        // Calls of a new turn: the last turn's are all answered.
        if (answering) expect(open).toEqual([]);
        answering = false;
        open.push(item.call_id ?? "");
      } else if (item.type === "function_call_output") {
        answering = true;
        expect(open).toContain(item.call_id);
        open = open.filter((id) => id !== item.call_id);
      } else {
        expect(open).toEqual([]);
        answering = false;
      }
    }
    expect(open).toEqual([]);
    return;
  }
  const messages = (body as { messages: ChatMsg[] }).messages;
  messages.forEach((m, i) => {
    if (m.role === "tool") {
      let j = i - 1;
      while (messages[j]?.role === "tool") j--;
      expect(messages[j]?.tool_calls?.map((c) => c.id) ?? []).toContain(m.tool_call_id);
    }
    const calls = m.role === "assistant" ? (m.tool_calls ?? []).map((c) => c.id) : [];
    if (calls.length === 0) return;
    const answers = messages
      .slice(i + 1, i + 1 + calls.length)
      .map((a) => (a.role === "tool" ? a.tool_call_id : a.role));
    expect(answers).toEqual(calls);
  });
}

/**
 * The context meter's tool share once shown and counted, in a chat with tools. (It used to answer 0
 * when the share was not on the page yet: on a loaded machine the meter had not drawn it.)
 */
export async function toolShareTokens(page: Page): Promise<number> {
  const share = page.getByTestId("meter-tools");
  await expect(share).toHaveAttribute("data-counted", "true", { timeout: 10_000 });
  return Number(await share.getAttribute("data-tokens"));
}

/**
 * A chat on the mock with "Code execution" chosen (Claude, or GPT-5 for `openai`): sends `prompt`,
 * the mock answering with `script`, and waits for the reply's text and for the chat to be idle.
 */
export async function codeExecutionReply(
  page: Page,
  mock: MockServer,
  api: "anthropic" | "openai",
  prompt: string,
  script: ReplyScript & { text: string },
): Promise<void> {
  await openConfigured(page, mock, api === "openai" ? { model: { provider: "openai", id: "gpt-5" } } : {});
  await chooseTool(page, "Code execution");
  mock.enqueue(api, script);
  await send(page, prompt);
  await expect(page.getByText(script.text)).toBeVisible({ timeout: 15_000 });
  await waitIdle(page);
}

/** The requests the mock recorded whose path holds `part` (a produced file's download). */
export const fileRequests = (mock: MockServer, part: string) => mock.requests().filter((r) => r.path.includes(part));
