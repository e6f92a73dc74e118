/**
 * Sending a provider-native compaction back (core/session/native-compaction.ts): the adapters put
 * `LlmContext.native` first, verbatim. buildContext sets it only for the provider that made it, so
 * here it is only translated, never decided.
 */
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import type { LlmContext } from "../core/session/context";

/** The Anthropic beta under which compaction blocks are accepted and the explicit request exists. */
export const ANTHROPIC_COMPACTION_BETA = "compact-2026-09-04";
/** The beta of the server-side `context_management` edit `compact_20260112`. */
const ANTHROPIC_SERVER_COMPACTION_BETA = "compact-2026-01-12";

/** Responses input with the native items (as returned by `responses.compact`) first. */
export function withOpenAINativeItems(context: LlmContext, input: ResponseInputItem[]): ResponseInputItem[] {
  if (context.native?.kind !== "openai") return input;
  // Verbatim: the items are the provider's own output, stored unchanged on the compaction entry.
  return [...(context.native.items as ResponseInputItem[]), ...input];
}

/** Anthropic messages with the compaction block first, as its own assistant turn. */
export function withAnthropicCompactionBlock(context: LlmContext, messages: MessageParam[]): MessageParam[] {
  if (context.native?.kind !== "anthropic") return messages;
  const block = context.native.block as unknown as MessageParam["content"] extends Array<infer B> | string ? B : never;
  return [{ role: "assistant", content: [block] }, ...messages];
}

/**
 * Request options for an Anthropic chat request: the beta header when it carries a compaction block
 * and/or asks for server-side compaction.
 */
export function anthropicNativeHeaders(
  context: LlmContext,
  serverCompaction?: { triggerTokens: number },
): { headers?: Record<string, string> } {
  const betas: string[] = [];
  if (context.native?.kind === "anthropic") betas.push(ANTHROPIC_COMPACTION_BETA);
  if (serverCompaction) betas.push(ANTHROPIC_SERVER_COMPACTION_BETA);
  return betas.length > 0 ? { headers: { "anthropic-beta": betas.join(",") } } : {};
}

/** The `context_management` body field for server-side compaction (`compact_20260112`), or nothing. */
export function anthropicServerCompaction(serverCompaction?: { triggerTokens: number }): Record<string, unknown> {
  if (!serverCompaction) return {};
  return {
    context_management: {
      edits: [
        {
          type: "compact_20260112",
          trigger: { type: "input_tokens", value: Math.max(1, Math.floor(serverCompaction.triggerTokens)) },
        },
      ],
    },
  };
}
