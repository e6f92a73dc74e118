/**
 * Provider-native compaction calls (issue 10, seed 002): OpenAI's `responses.compact` and
 * Anthropic's explicit compaction request (beta `compact-2026-09-04`: `compaction: {type:
 * "summarize"}` on POST /v1/messages, answered by a lone `compaction` block). Each takes the folded
 * part as an ordinary context and returns the provider's material verbatim, for the compaction
 * entry's `preserveData`; it throws on any failure (the caller falls back to Grove's summary).
 *
 * No retries and no decision about what is folded: the compaction worker decides that.
 */
import type { LlmContext } from "../core/session/context";
import type { AnthropicCompaction, CompactionMethod, OpenAIRemoteCompaction } from "../core/session/entries";
import type { ClientDeps } from "./client-config";
import { ANTHROPIC_COMPACTION_BETA, withAnthropicCompactionBlock, withOpenAINativeItems } from "./native-prefix";
import type { ProviderConfig } from "./types";

export type NativeCompactionRequest = {
  method: Exclude<CompactionMethod, "grove">;
  provider: ProviderConfig;
  model: string;
  /** The folded part, built for this provider (its own earlier native material included). */
  context: LlmContext;
  instructions?: string;
  maxOutputTokens: number;
  signal: AbortSignal;
};

type NativeCompactionResult =
  | { method: "openai"; openaiRemoteCompaction: OpenAIRemoteCompaction }
  | { method: "anthropic"; anthropicCompaction: AnthropicCompaction };

export type CompactNativeFn = (req: NativeCompactionRequest) => Promise<NativeCompactionResult>;

class NativeCompactionError extends Error {
  override name = "NativeCompactionError";
}

function createCompactNative(deps: ClientDeps = {}): CompactNativeFn {
  return async (req) => {
    switch (req.method) {
      case "openai":
        return { method: "openai", openaiRemoteCompaction: await compactOpenAI(req, deps) };
      case "anthropic":
        return { method: "anthropic", anthropicCompaction: await compactAnthropic(req, deps) };
    }
  };
}

export const compactNative: CompactNativeFn = createCompactNative();

async function compactOpenAI(req: NativeCompactionRequest, deps: ClientDeps): Promise<OpenAIRemoteCompaction> {
  // The adapters' converters and SDK clients on demand: the worker loads each only for its own provider.
  const [{ convertMessages: responsesInput }, { makeOpenAIClient }] = await Promise.all([
    import("./openai-responses"),
    import("./openai-client"),
  ]);
  const client = makeOpenAIClient(req.provider, deps);
  const input = withOpenAINativeItems(req.context, responsesInput(req.context));
  const instructions = req.context.system.trim() ? req.context.system : undefined;
  const res = await client.responses.compact(
    { model: req.model, input, ...(instructions ? { instructions } : {}) },
    { signal: req.signal },
  );
  const items: unknown[] = Array.isArray(res.output) ? res.output : [];
  if (!items.some((i) => typeof i === "object" && i !== null && (i as { type?: unknown }).type === "compaction")) {
    throw new NativeCompactionError("OpenAI's compaction returned no compaction item.");
  }
  return { api: req.provider.api, provider: req.provider.id, model: req.model, items };
}

async function compactAnthropic(req: NativeCompactionRequest, deps: ClientDeps): Promise<AnthropicCompaction> {
  const [{ convertMessages: anthropicMessages }, { makeAnthropicClient }] = await Promise.all([
    import("./anthropic"),
    import("./anthropic-client"),
  ]);
  const client = makeAnthropicClient(req.provider, deps);
  const instructions = req.instructions?.trim();
  // Streamed: the SDK refuses a non-streaming request whose max_tokens could take over ten minutes.
  const stream = client.beta.messages.stream(
    {
      model: req.model,
      max_tokens: req.maxOutputTokens,
      messages: withAnthropicCompactionBlock(req.context, anthropicMessages(req.context)) as never,
      ...(req.context.system.trim() ? { system: req.context.system } : {}),
      compaction: { type: "summarize", ...(instructions ? { instructions } : {}) },
      betas: [ANTHROPIC_COMPACTION_BETA],
    },
    { signal: req.signal },
  );
  const res = await stream.finalMessage();
  const block = res.content.find((b) => b.type === "compaction");
  if (!block || typeof block.content !== "string" || block.content.trim() === "") {
    throw new NativeCompactionError("Claude's compaction returned no summary.");
  }
  // Kept verbatim: the signature covers it, and Anthropic wants it back unchanged.
  const kept = { ...block } as AnthropicCompaction["block"];
  return { api: req.provider.api, provider: req.provider.id, model: req.model, block: kept };
}
