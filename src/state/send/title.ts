/**
 * "Generate chat titles" (Settings › Models, on by default): once a new chat's first reply is in, the
 * summary model (or the chat's own model) is asked for a short title, which replaces the first-words
 * title unless the user has renamed the chat meanwhile. A side request: never an entry of the tree,
 * asked while the title is still the first words (send.ts calls it after a first reply), and its usage is not counted in Spending (no side
 * request's is; Settings says so). Best effort and silent: a chat keeps its first-words title when
 * the call fails, and no error notice interrupts the user for it.
 */
import { CHAT_TITLE, CHAT_TITLE_SYSTEM, fillTemplate } from "../../core/prompts";
import { isAttachmentBlock, messageText } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { firstWordsTitle, titleFromModel } from "../../core/session/title";
import { getSessionPath } from "../../db/entries";
import { setAutoTitle } from "../../db/sessions";
import { type SummarizeRequest, summarizeInWorker } from "../../worker/client";
import { chatTarget, isTargetError, summarizerTarget } from "../models/chat-target";
import { useSettingsStore } from "../settings/settings-store";

/** The start of each message is enough to name a chat, and keeps the call cheap. */
const EXCERPT_CHARS = 2_000;
const TITLE_OUTPUT_TOKENS = 40;

export type TitleDeps = { summarize: (req: SummarizeRequest) => Promise<string> };

/** Resolves with the title applied, or null when nothing changed (off, renamed, no reply, failure). */
export async function nameChatWithModel(
  sessionId: SessionId,
  deps: TitleDeps = { summarize: (req) => summarizeInWorker(req) },
): Promise<string | null> {
  const settings = useSettingsStore.getState().settings;
  if (!settings.modelTitles) return null;
  try {
    const read = await getSessionPath(sessionId);
    const session = read?.session;
    if (!read || session?.titleSource !== "auto" || !session.leafId) return null;
    const { path } = read;
    const user = path.find((e) => e.type === "message" && e.role === "user");
    const reply = path.find((e) => e.type === "message" && e.role === "assistant" && e.status === "complete");
    if (user?.type !== "message" || reply?.type !== "message") return null;
    // Named already (by the model, or a title from an import): asked once, not on every retry.
    if (session.title !== firstWordsTitle(messageText(user.content), user.content.filter(isAttachmentBlock)))
      return null;
    const chat = chatTarget(session, settings);
    if (isTargetError(chat)) return null;
    const target = summarizerTarget(chat, settings);
    const raw = await deps.summarize({
      provider: target.provider,
      model: target.modelId,
      system: CHAT_TITLE_SYSTEM,
      prompt: fillTemplate(CHAT_TITLE, {
        user: messageText(user.content).slice(0, EXCERPT_CHARS),
        assistant: messageText(reply.content).slice(0, EXCERPT_CHARS),
      }),
      maxOutputTokens: TITLE_OUTPUT_TOKENS,
    });
    const title = titleFromModel(raw);
    return title && (await setAutoTitle(sessionId, title)) ? title : null;
  } catch {
    return null; // best effort: the first-words title stays
  }
}
