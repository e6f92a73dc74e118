/**
 * Who the fidelity bench talks to. Mock: the e2e mock server's deterministic summarizers (one
 * row each), its reader answering the probes and its grader, over the Anthropic wire format.
 * Live: a real provider per key in the environment, its model summarizing, answering and grading
 * (as "Check memory" grades with the summary model). Everything else is shared (run-fidelity.ts).
 */
import * as Comlink from "comlink";
import {
  FIDELITY_GRADER,
  FIDELITY_READER,
  FIDELITY_SUMMARIZERS,
  fidelitySummarizerModel,
} from "../../e2e/mock-server/fidelity";
import type { ProviderConfig } from "../../src/providers/types";
import type { FidelityTarget, FidelityWorld } from "./run-fidelity";

/** Mock requests are priced as this model's (the usage the mock reports: request chars ÷ 4). */
export const MOCK_PRICE_MODEL = "claude-haiku-4-5";

/**
 * A plain http:// base URL the user named in the environment counts as confirmed (the app asks
 * once in Settings before it sends a key over http off the local network; providers/endpoint.ts).
 */
const confirmedHttp = (baseUrl: string): Pick<ProviderConfig, "plainHttpOrigin"> => {
  try {
    const url = new URL(baseUrl);
    return url.protocol === "http:" ? { plainHttpOrigin: url.origin } : {};
  } catch {
    return {};
  }
};

const anthropic = (baseUrl: string, apiKey: string): ProviderConfig => ({
  id: "anthropic",
  name: "Anthropic",
  api: "anthropic-messages",
  baseUrl,
  apiKey,
  customModels: [],
  builtIn: true,
  ...confirmedHttp(baseUrl),
});

const openai = (baseUrl: string, apiKey: string, api: OpenAiApi = "openai-responses"): ProviderConfig => ({
  ...(api === "openai-responses"
    ? { id: "openai", name: "OpenAI", builtIn: true }
    : { id: "openai-compatible", name: "OpenAI-compatible", builtIn: false }),
  api,
  baseUrl,
  apiKey,
  customModels: [],
  ...confirmedHttp(baseUrl),
});

/** One target per adversarial (and the reference) summarizer of the mock at `anthropicBaseUrl`. */
export function mockTargets(anthropicBaseUrl: string): FidelityTarget[] {
  const provider = anthropic(anthropicBaseUrl, "sk-ant-fidelity-bench");
  return FIDELITY_SUMMARIZERS.map((kind) => ({
    label: kind,
    summarizer: { provider, model: fidelitySummarizerModel(kind) },
    chat: { provider, model: FIDELITY_READER },
    grader: { provider, model: FIDELITY_GRADER },
    priceModel: MOCK_PRICE_MODEL,
  }));
}

type Env = Readonly<Record<string, string | undefined>>;

/** The OpenAI wire formats a live OpenAI target can speak (`GROVE_LIVE_OPENAI_API`). */
const OPENAI_APIS = ["openai-responses", "openai-chat"] as const;
type OpenAiApi = (typeof OPENAI_APIS)[number];

const LIVE = [
  {
    name: "ANTHROPIC",
    provider: (baseUrl: string, key: string, _api: string | undefined) => anthropic(baseUrl, key),
    baseUrl: "https://api.anthropic.com",
    model: "claude-haiku-4-5",
  },
  {
    name: "OPENAI",
    provider: (baseUrl: string, key: string, api: string | undefined) => {
      if (api !== undefined && !(OPENAI_APIS as readonly string[]).includes(api)) {
        throw new Error(`GROVE_LIVE_OPENAI_API must be ${OPENAI_APIS.join(" or ")}, not "${api}"`);
      }
      return openai(baseUrl, key, api as OpenAiApi | undefined);
    },
    baseUrl: "https://api.openai.com/v1",
    model: "gpt-4.1-mini",
  },
] as const;

/**
 * One target per provider whose key is set: `GROVE_LIVE_ANTHROPIC_KEY`, `GROVE_LIVE_OPENAI_KEY`.
 * `GROVE_LIVE_<P>_BASE_URL` points it at any compatible endpoint (a proxy, OpenRouter, a local
 * server, the mock); the row then names the host, so its numbers are not taken for the provider's.
 * `GROVE_LIVE_OPENAI_API=openai-chat` speaks Chat Completions instead of Responses (Ollama, most
 * compatible servers).
 */
export function liveTargets(env: Env): FidelityTarget[] {
  const out: FidelityTarget[] = [];
  for (const l of LIVE) {
    const key = env[`GROVE_LIVE_${l.name}_KEY`]?.trim();
    if (!key) continue;
    const override = env[`GROVE_LIVE_${l.name}_BASE_URL`]?.trim().replace(/\/+$/, "");
    const provider = l.provider(override || l.baseUrl, key, env[`GROVE_LIVE_${l.name}_API`]?.trim() || undefined);
    const model = env[`GROVE_LIVE_${l.name}_MODEL`]?.trim() || l.model;
    const summarizer = env[`GROVE_LIVE_${l.name}_SUMMARIZER`]?.trim() || model;
    const models = summarizer === model ? model : `${summarizer} → ${model}`;
    out.push({
      label: override ? `${models} @ ${hostOf(override)}` : models,
      summarizer: { provider, model: summarizer },
      chat: { provider, model },
      grader: { provider, model: summarizer },
      priceModel: null,
    });
  }
  return out;
}

const hostOf = (baseUrl: string): string => {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
};

/**
 * One tiny request to each model of a live target before the run spends anything: an unreachable
 * network or a refused key stops the bench with a message that says which and what to do.
 */
export async function checkReachable(world: FidelityWorld, target: FidelityTarget): Promise<void> {
  for (const ref of [target.summarizer, target.chat]) {
    try {
      await world.api.summarize(
        { provider: ref.provider, model: ref.model, system: "Reply with OK.", prompt: "OK?", maxOutputTokens: 16 },
        Comlink.proxy(() => {}),
      );
    } catch (e) {
      const err = e as { kind?: string; message?: string };
      const where = `${ref.provider.name} at ${ref.provider.baseUrl} (model ${ref.model})`;
      if (err.kind === "network")
        throw new Error(
          `Live fidelity run: cannot reach ${where}: ${(err.message ?? String(e)).replace(/\.+$/, "")}. ` +
            "The live run needs the network (or set the BASE_URL variable to a proxy); " +
            "unset the GROVE_LIVE_* keys to run against the mock only.",
        );
      throw new Error(`Live fidelity run: ${where} refused the check request: ${err.message ?? String(e)}`);
    }
  }
}
