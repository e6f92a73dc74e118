/**
 * A job's provider stream, metered: the usage each request reports (on its final `done` or
 * `error` event: a failed request can be billed too) is summed per model, so the entry the job
 * makes records what its requests cost (entries.ts `sideUsage`; the monthly spending shows it).
 */
import { withModelUsage } from "../core/cost/side-usage";
import type { ModelUsage } from "../core/session/entries";
import type { StreamFn } from "../providers/types";

export type MeteredStream = { readonly stream: StreamFn; readonly usage: () => ModelUsage[] };

export function meteredStream(stream: StreamFn): MeteredStream {
  let usage: ModelUsage[] = [];
  return {
    stream: (req) => ({
      async *[Symbol.asyncIterator]() {
        for await (const event of stream(req)) {
          if ((event.type === "done" || event.type === "error") && event.partial.usage) {
            usage = withModelUsage(usage, req.model, event.partial.usage);
          }
          yield event;
        }
      },
    }),
    usage: () => usage,
  };
}
