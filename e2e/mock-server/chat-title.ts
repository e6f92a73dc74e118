/**
 * Grove's side request for a chat's title ("Generate chat titles", on by default): after a new chat's
 * first reply the app asks for a few-word title with `prompts/chat-title-system.md` as its system
 * prompt. The mock knows the request by that prompt and answers it apart from the chat:
 * - it takes only a queued script whose `match` fits it explicitly, never a script queued without
 *   `match` (those are the test's chat replies, which a title request arriving in between would eat);
 * - with none, it answers `Mock title: <the first words of the user's message>`, a title that is
 *   visibly not the first-words title the app gives at once.
 * No I/O here.
 */
import type { ReplyScript } from "./types";
import { lastUserText, requestSystem } from "./wire";

/** The start of `prompts/chat-title-system.md` (chat-title.test.ts checks it against the file). */
export const CHAT_TITLE_SYSTEM_MARK = "You name conversations";

const DEFAULT_TITLE_WORDS = 4;

type RequestLike = Parameters<typeof requestSystem>[0];

export function isChatTitleRequest(req: RequestLike): boolean {
  return requestSystem(req).includes(CHAT_TITLE_SYSTEM_MARK);
}

/** Whether `script` may answer a title request: only one written for it (a `match` that names it). */
export const answersTitleRequest = (script: ReplyScript): boolean => script.match !== undefined;

/** The answer to a title request nothing was queued for: from the `<user>` part of the prompt. */
export function defaultChatTitle(req: RequestLike): string {
  const prompt = lastUserText(req);
  const user = /<user>\s*([\s\S]*?)\s*<\/user>/.exec(prompt)?.[1] ?? prompt;
  const words = user
    .split(/\s+/)
    .filter((w) => w !== "")
    .slice(0, DEFAULT_TITLE_WORDS);
  return `Mock title: ${words.join(" ") || "untitled"}`;
}
