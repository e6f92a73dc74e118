/**
 * Tools in the OpenAI Responses wire format (openai-responses.ts streams and sends what this builds):
 * function calls as `function_call` items (arguments streamed as `response.function_call_arguments.delta`),
 * the provider-run tools as `web_search_call`, `code_interpreter_call` and (the `mcp` tool)
 * `mcp_list_tools` + `mcp_call` items with their progress events (a code interpreter's charts as
 * `image` outputs with `data:` URLs), citations as `url_citation` annotations. Shapes follow the `openai` SDK's resources/responses/responses.d.ts. Also the API's
 * pairing checks of `function_call` and `function_call_output` input items. No I/O here.
 */
import { argumentChunks, type ReplyPlan } from "./plan";
import { CHART_PNG, HOSTILE_SVG } from "./png";
import type { ServerToolScript } from "./types";
import { isRecord } from "./wire";

type Json = Record<string, unknown>;

/** One streamed event before `output_item.done`: its type and fields (the output index is added by the sender). */
export type ItemEvent = { type: string; data: Json };

/** An output item: as first announced (`output_item.added`), the events while it runs, and as done. */
export type ReplyItem = { added: Json; events: ItemEvent[]; done: Json };

function progress(type: string, id: string, ...steps: string[]): ItemEvent[] {
  return steps.map((step) => ({ type: `response.${type}.${step}`, data: { item_id: id } }));
}

/** The container every mock code interpreter call runs in (its files' citations name it). */
export const MOCK_CONTAINER = "cntr_mock";

/** The container file id of a file the script names (code-files.ts serves its bytes). */
export const containerFileId = (name: string): string => `cfile_${name}`;

/** An image output's `data:` URL: the bar chart, or a hostile SVG. */
export const imageDataUrl = (image: "png" | "svg"): string =>
  image === "png"
    ? `data:image/png;base64,${CHART_PNG.toString("base64")}`
    : `data:image/svg+xml;base64,${Buffer.from(HOSTILE_SVG).toString("base64")}`;

function serverToolItems(tool: ServerToolScript, n: string): ReplyItem[] {
  switch (tool.kind) {
    case "web_search":
    case "web_fetch": {
      const id = `ws_mock${n}`;
      const done =
        tool.kind === "web_search"
          ? {
              type: "search",
              query: tool.query,
              sources: tool.results.map((r) => ({ type: "url", url: r.url })),
            }
          : { type: "open_page", url: tool.url };
      const started = tool.kind === "web_search" ? { type: "search", query: tool.query } : done;
      return [
        {
          added: { id, type: "web_search_call", status: "in_progress", action: started },
          events: progress("web_search_call", id, "in_progress", "searching", "completed"),
          done: { id, type: "web_search_call", status: "completed", action: done },
        },
      ];
    }
    case "code_execution": {
      const id = `ci_mock${n}`;
      const logs = [tool.stdout, tool.stderr ?? ""].filter(Boolean).join("\n");
      const outputs: Json[] = [{ type: "logs", logs }];
      for (const image of tool.images ?? []) outputs.push({ type: "image", url: imageDataUrl(image) });
      const base = { id, type: "code_interpreter_call", container_id: MOCK_CONTAINER };
      return [
        {
          added: { ...base, status: "in_progress", code: "", outputs: null },
          events: [
            ...progress("code_interpreter_call", id, "in_progress"),
            ...argumentChunksOf(tool.code).map((delta) => ({
              type: "response.code_interpreter_call_code.delta",
              data: { item_id: id, delta },
            })),
            { type: "response.code_interpreter_call_code.done", data: { item_id: id, code: tool.code } },
            ...progress("code_interpreter_call", id, "interpreting", "completed"),
          ],
          done: { ...base, status: "completed", code: tool.code, outputs },
        },
      ];
    }
    case "mcp": {
      const listId = `mcpl_mock${n}`;
      const id = `mcp_mock${n}`;
      const args = JSON.stringify(tool.input);
      const base = { id, type: "mcp_call", server_label: tool.server, name: tool.name };
      const failed = tool.isError === true;
      return [
        {
          added: { id: listId, type: "mcp_list_tools", server_label: tool.server, tools: [] },
          events: progress("mcp_list_tools", listId, "in_progress", "completed"),
          done: {
            id: listId,
            type: "mcp_list_tools",
            server_label: tool.server,
            tools: [{ name: tool.name, input_schema: { type: "object" }, description: null, annotations: null }],
          },
        },
        {
          added: { ...base, arguments: "", status: "in_progress" },
          events: [
            ...progress("mcp_call", id, "in_progress"),
            ...argumentChunks(tool.input).map((delta) => ({
              type: "response.mcp_call_arguments.delta",
              data: { item_id: id, delta },
            })),
            { type: "response.mcp_call_arguments.done", data: { item_id: id, arguments: args } },
            ...progress("mcp_call", id, failed ? "failed" : "completed"),
          ],
          done: {
            ...base,
            arguments: args,
            output: failed ? null : tool.output,
            error: failed ? tool.output : null,
            status: failed ? "failed" : "completed",
          },
        },
      ];
    }
    default: {
      const unknown: never = tool;
      throw new Error(`unknown server tool ${JSON.stringify(unknown)}`);
    }
  }
}

/** Code as the API streams it: a few pieces. */
function argumentChunksOf(code: string): string[] {
  const size = Math.max(1, Math.ceil(code.length / 3));
  const out: string[] = [];
  for (let i = 0; i < code.length; i += size) out.push(code.slice(i, i + size));
  return out;
}

/** The items before the message: each server tool's, in script order. */
export function leadingItems(plan: ReplyPlan, nextId: () => string): ReplyItem[] {
  return plan.serverTools.flatMap((tool) => serverToolItems(tool, nextId()));
}

/** The `function_call` items after the message, one per scripted call. */
export function functionCallItems(plan: ReplyPlan, nextId: () => string): ReplyItem[] {
  return plan.toolCalls.map((call) => {
    const n = nextId();
    const id = `fc_mock${n}`;
    const args = JSON.stringify(call.input);
    const base = { id, type: "function_call", call_id: call.id ?? `call_mock${n}`, name: call.name };
    return {
      added: { ...base, arguments: "", status: "in_progress" },
      events: [
        ...argumentChunks(call.input).map((delta) => ({
          type: "response.function_call_arguments.delta",
          data: { item_id: id, delta },
        })),
        { type: "response.function_call_arguments.done", data: { item_id: id, name: call.name, arguments: args } },
      ],
      done: { ...base, arguments: args, status: "completed" },
    };
  });
}

/**
 * The `url_citation` annotations of the message's text: each cited text's place in it (the text's end
 * when the cited text is not in it).
 */
export function urlCitations(plan: ReplyPlan): Json[] {
  return plan.citations.map((c) => {
    const at = plan.text.indexOf(c.citedText);
    const start = at >= 0 ? at : plan.text.length;
    const end = at >= 0 ? at + c.citedText.length : plan.text.length;
    return { type: "url_citation", url: c.url, title: c.title, start_index: start, end_index: end };
  });
}

/**
 * The message's annotations: its `url_citation`s, then a `container_file_citation` (at the text's end)
 * for each file the plan's code interpreter calls produced — where the API names the files code wrote.
 */
export function messageAnnotations(plan: ReplyPlan): Json[] {
  const files = plan.serverTools.flatMap((t) => (t.kind === "code_execution" ? (t.files ?? []) : []));
  const end = plan.text.length;
  return [
    ...urlCitations(plan),
    ...files.map((name) => ({
      type: "container_file_citation",
      container_id: MOCK_CONTAINER,
      file_id: containerFileId(name),
      filename: name,
      start_index: end,
      end_index: end,
    })),
  ];
}

const callIdOf = (item: Json): string => (typeof item.call_id === "string" ? item.call_id : "");

/**
 * The API's pairing checks over `input`: a `function_call_output` answers a `function_call` given before
 * it, and every `function_call` has an output somewhere in the input.
 */
export function responsesToolPairingViolation(input: readonly unknown[]): string | null {
  const calls = new Set<string>();
  const outputs = new Set<string>();
  for (const item of input) {
    if (!isRecord(item)) continue;
    if (item.type === "function_call") calls.add(callIdOf(item));
    if (item.type === "function_call_output") {
      if (!calls.has(callIdOf(item))) {
        return `No tool call found for function call output with call_id ${callIdOf(item)}.`;
      }
      outputs.add(callIdOf(item));
    }
  }
  for (const id of calls) if (!outputs.has(id)) return `No tool output found for function call ${id}.`;
  return null;
}
