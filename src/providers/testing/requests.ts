/**
 * Shared fixtures for provider tests (requests, providers, event collection).
 * Test support only; nothing in the app imports it.
 */
import type { LlmContext } from "../../core/session/context";
import type { ApiKind } from "../../core/session/entries";
import type { ProviderConfig, StreamEvent, StreamRequest } from "../types";

export function testProvider(api: ApiKind, patch: Partial<ProviderConfig> = {}): ProviderConfig {
  return api === "anthropic-messages"
    ? {
        id: "anthropic",
        name: "Anthropic",
        api,
        baseUrl: "https://api.anthropic.com",
        apiKey: "sk-ant-test",
        customModels: [],
        builtIn: true,
        ...patch,
      }
    : {
        id: "openai",
        name: "OpenAI",
        api,
        baseUrl: "https://api.openai.com/v1",
        apiKey: "sk-test",
        customModels: [],
        builtIn: true,
        ...patch,
      };
}

const HELLO_CONTEXT: LlmContext = {
  system: "You are terse.",
  messages: [{ role: "user", content: [{ type: "text", text: "Hello" }] }],
};

export function testRequest(api: ApiKind, patch: Partial<StreamRequest> = {}): StreamRequest {
  return {
    provider: testProvider(api),
    model: api === "anthropic-messages" ? "claude-haiku-4-5" : "gpt-4o",
    context: HELLO_CONTEXT,
    maxOutputTokens: 1024,
    thinking: { kind: "off" },
    signal: new AbortController().signal,
    ...patch,
  };
}

/**
 * Drains a stream, snapshotting each event (adapters mutate the partial in place).
 * `onEvent` runs before the next event is pulled (e.g. to abort after the first delta).
 */
export async function collect<E extends StreamEvent = StreamEvent>(
  events: AsyncIterable<E>,
  onEvent?: (e: E) => void,
): Promise<E[]> {
  const out: E[] = [];
  for await (const e of events) {
    const snap = structuredClone(e);
    out.push(snap);
    onEvent?.(snap);
  }
  return out;
}

export function types(events: ReadonlyArray<StreamEvent>): string[] {
  return events.map((e) => e.type);
}

/** The last event, which the contract says is the only `done` or `error`. */
export function last<E extends StreamEvent>(events: E[]): E {
  const e = events.at(-1);
  if (!e) throw new Error("no events");
  return e;
}
