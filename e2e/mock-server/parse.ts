/**
 * Checking the JSON that arrives on the HTTP control API (`/__mock/…`) against the in-process types, so
 * a typo in a script from a browser or another process is a 400 with a reason, not a silent default.
 */
import {
  APIS,
  type Api,
  type Fault,
  type Hold,
  type MockConfigPatch,
  type ReplyScript,
  type ScriptCitation,
  type ScriptMatch,
  type ScriptToolCall,
  type ServerToolScript,
} from "./types";
import { isRecord } from "./wire";

export class ParseError extends Error {
  override readonly name = "ParseError";
}

function fail(where: string, expected: string): never {
  throw new ParseError(`${where}: expected ${expected}`);
}

function optNumber(obj: Record<string, unknown>, key: string, where: string): number | undefined {
  const v = obj[key];
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) fail(`${where}.${key}`, "a non-negative number");
  return v;
}

function optString(obj: Record<string, unknown>, key: string, where: string): string | undefined {
  const v = obj[key];
  if (v === undefined) return undefined;
  if (typeof v !== "string") fail(`${where}.${key}`, "a string");
  return v;
}

function optNullableString(obj: Record<string, unknown>, key: string, where: string): string | null | undefined {
  return obj[key] === null ? null : optString(obj, key, where);
}

function checkKeys(obj: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key))
      throw new ParseError(`${where}: unknown field "${key}" (allowed: ${allowed.join(", ")})`);
  }
}

export function parseApi(value: unknown, where = "api"): Api {
  const api = APIS.find((a) => a === value);
  if (api === undefined) fail(where, `one of ${APIS.join(", ")}`);
  return api;
}

function afterChunks(obj: Record<string, unknown>, where: string): number {
  const n = optNumber(obj, "afterChunks", where);
  if (n === undefined || !Number.isInteger(n)) fail(`${where}.afterChunks`, "a non-negative integer");
  return n;
}

export function parseFault(value: unknown, where: string): Fault {
  if (!isRecord(value)) fail(where, "an object");
  switch (value.kind) {
    case "http": {
      checkKeys(value, ["kind", "status", "errorType", "message", "retryAfterSeconds", "code", "param"], where);
      const status = optNumber(value, "status", where);
      if (status === undefined || !Number.isInteger(status) || status < 400 || status > 599) {
        fail(`${where}.status`, "an integer HTTP error status (400–599)");
      }
      const fault: Fault = { kind: "http", status };
      const errorType = optString(value, "errorType", where);
      const message = optString(value, "message", where);
      const retryAfterSeconds = value.retryAfterSeconds === null ? null : optNumber(value, "retryAfterSeconds", where);
      const code = optNullableString(value, "code", where);
      const param = optNullableString(value, "param", where);
      if (errorType !== undefined) fault.errorType = errorType;
      if (message !== undefined) fault.message = message;
      if (retryAfterSeconds !== undefined) fault.retryAfterSeconds = retryAfterSeconds;
      if (code !== undefined) fault.code = code;
      if (param !== undefined) fault.param = param;
      return fault;
    }
    case "midstream_error": {
      checkKeys(value, ["kind", "afterChunks", "errorType", "message"], where);
      const fault: Fault = { kind: "midstream_error", afterChunks: afterChunks(value, where) };
      const errorType = optString(value, "errorType", where);
      const message = optString(value, "message", where);
      if (errorType !== undefined) fault.errorType = errorType;
      if (message !== undefined) fault.message = message;
      return fault;
    }
    case "drop":
    case "hang":
      checkKeys(value, ["kind", "afterChunks"], where);
      return { kind: value.kind, afterChunks: afterChunks(value, where) };
    default:
      fail(`${where}.kind`, `"http", "midstream_error", "drop" or "hang"`);
  }
}

const MATCH_KEYS = ["system", "lastUser", "anyText", "model", "lastToolResult"] as const;

function parseMatch(value: unknown, where: string): ScriptMatch {
  if (!isRecord(value)) fail(where, "an object");
  checkKeys(value, MATCH_KEYS, where);
  const match: ScriptMatch = {};
  for (const key of MATCH_KEYS) {
    const v = optString(value, key, where);
    if (v !== undefined) match[key] = v;
  }
  return match;
}

function parseHold(value: unknown, where: string): Hold {
  if (value === true) return true;
  if (!isRecord(value)) fail(where, "true or {afterChunks}");
  checkKeys(value, ["afterChunks"], where);
  return { afterChunks: afterChunks(value, where) };
}

/** The body of `POST /__mock/release`: `{}` (every api) or `{api}`. */
export function parseReleaseApi(value: unknown): Api | undefined {
  if (!isRecord(value)) fail("body", "an object");
  checkKeys(value, ["api"], "body");
  return value.api === undefined ? undefined : parseApi(value.api, "body.api");
}

function reqString(obj: Record<string, unknown>, key: string, where: string): string {
  const v = optString(obj, key, where);
  if (v === undefined) fail(`${where}.${key}`, "a string");
  return v;
}

function jsonObject(value: unknown, where: string): Record<string, unknown> {
  if (!isRecord(value)) fail(where, "a JSON object");
  return value;
}

function list<T>(value: unknown, where: string, item: (v: unknown, where: string) => T): T[] {
  if (!Array.isArray(value)) fail(where, "an array");
  return value.map((v, i) => item(v, `${where}[${i}]`));
}

function parseToolCall(value: unknown, where: string): ScriptToolCall {
  if (!isRecord(value)) fail(where, "an object");
  checkKeys(value, ["name", "input", "id"], where);
  const call: ScriptToolCall = {
    name: reqString(value, "name", where),
    input: jsonObject(value.input, `${where}.input`),
  };
  const id = optString(value, "id", where);
  if (id !== undefined) call.id = id;
  return call;
}

function parseServerTool(value: unknown, where: string): ServerToolScript {
  if (!isRecord(value)) fail(where, "an object");
  switch (value.kind) {
    case "web_search":
      checkKeys(value, ["kind", "query", "results"], where);
      return {
        kind: "web_search",
        query: reqString(value, "query", where),
        results: list(value.results, `${where}.results`, (r, w) => {
          if (!isRecord(r)) fail(w, "an object");
          checkKeys(r, ["url", "title", "pageAge"], w);
          const pageAge = optString(r, "pageAge", w);
          return {
            url: reqString(r, "url", w),
            title: reqString(r, "title", w),
            ...(pageAge !== undefined ? { pageAge } : {}),
          };
        }),
      };
    case "web_fetch": {
      checkKeys(value, ["kind", "url", "title", "text"], where);
      const title = optString(value, "title", where);
      return {
        kind: "web_fetch",
        url: reqString(value, "url", where),
        text: reqString(value, "text", where),
        ...(title !== undefined ? { title } : {}),
      };
    }
    case "code_execution": {
      checkKeys(value, ["kind", "code", "stdout", "stderr", "returnCode", "files", "variant"], where);
      const tool: ServerToolScript = {
        kind: "code_execution",
        code: reqString(value, "code", where),
        stdout: reqString(value, "stdout", where),
      };
      const stderr = optString(value, "stderr", where);
      if (stderr !== undefined) tool.stderr = stderr;
      const returnCode = optNumber(value, "returnCode", where);
      if (returnCode !== undefined) tool.returnCode = returnCode;
      if (value.files !== undefined) {
        tool.files = list(value.files, `${where}.files`, (f, w) => (typeof f === "string" ? f : fail(w, "a string")));
      }
      if (value.variant !== undefined) {
        if (value.variant !== "bash" && value.variant !== "python") fail(`${where}.variant`, `"bash" or "python"`);
        tool.variant = value.variant;
      }
      return tool;
    }
    case "mcp": {
      checkKeys(value, ["kind", "server", "name", "input", "output", "isError"], where);
      const tool: ServerToolScript = {
        kind: "mcp",
        server: reqString(value, "server", where),
        name: reqString(value, "name", where),
        input: jsonObject(value.input, `${where}.input`),
        output: reqString(value, "output", where),
      };
      if (value.isError !== undefined) {
        if (typeof value.isError !== "boolean") fail(`${where}.isError`, "a boolean");
        tool.isError = value.isError;
      }
      return tool;
    }
    default:
      fail(`${where}.kind`, `"web_search", "web_fetch", "code_execution" or "mcp"`);
  }
}

function parseCitation(value: unknown, where: string): ScriptCitation {
  if (!isRecord(value)) fail(where, "an object");
  checkKeys(value, ["url", "title", "citedText"], where);
  return {
    url: reqString(value, "url", where),
    title: reqString(value, "title", where),
    citedText: reqString(value, "citedText", where),
  };
}

const SCRIPT_KEYS = [
  "toolCalls",
  "serverTools",
  "citations",
  "text",
  "chunks",
  "thinking",
  "chunkDelayMs",
  "latencyMs",
  "stopReason",
  "usage",
  "fault",
  "hold",
  "match",
] as const;

export function parseScript(value: unknown, where = "script"): ReplyScript {
  if (!isRecord(value)) fail(where, "an object");
  checkKeys(value, SCRIPT_KEYS, where);
  const script: ReplyScript = {};
  const text = optString(value, "text", where);
  if (text !== undefined) script.text = text;
  if (value.chunks !== undefined) {
    const chunks = value.chunks;
    if (!Array.isArray(chunks)) fail(`${where}.chunks`, "an array of strings");
    script.chunks = chunks.map((c, i) => (typeof c === "string" ? c : fail(`${where}.chunks[${i}]`, "a string")));
  }
  const thinking = optString(value, "thinking", where);
  if (thinking !== undefined) script.thinking = thinking;
  const chunkDelayMs = optNumber(value, "chunkDelayMs", where);
  if (chunkDelayMs !== undefined) script.chunkDelayMs = chunkDelayMs;
  const latencyMs = optNumber(value, "latencyMs", where);
  if (latencyMs !== undefined) script.latencyMs = latencyMs;
  if (value.hold !== undefined) script.hold = parseHold(value.hold, `${where}.hold`);
  if (value.stopReason !== undefined) {
    if (value.stopReason !== "end" && value.stopReason !== "length") fail(`${where}.stopReason`, `"end" or "length"`);
    script.stopReason = value.stopReason;
  }
  if (value.usage !== undefined) {
    const usage = value.usage;
    if (!isRecord(usage)) fail(`${where}.usage`, "an object");
    checkKeys(usage, ["input", "output"], `${where}.usage`);
    script.usage = {};
    const input = optNumber(usage, "input", `${where}.usage`);
    const output = optNumber(usage, "output", `${where}.usage`);
    if (input !== undefined) script.usage.input = input;
    if (output !== undefined) script.usage.output = output;
  }
  if (value.fault !== undefined) script.fault = parseFault(value.fault, `${where}.fault`);
  if (value.toolCalls !== undefined) script.toolCalls = list(value.toolCalls, `${where}.toolCalls`, parseToolCall);
  if (value.serverTools !== undefined) {
    script.serverTools = list(value.serverTools, `${where}.serverTools`, parseServerTool);
  }
  if (value.citations !== undefined) script.citations = list(value.citations, `${where}.citations`, parseCitation);
  if (value.match !== undefined) script.match = parseMatch(value.match, `${where}.match`);
  return script;
}

/** `{api, scripts: [...]}` or `{api, script: {...}}`. */
export function parseEnqueue(value: unknown): { api: Api; scripts: ReplyScript[] } {
  if (!isRecord(value)) fail("body", "an object");
  checkKeys(value, ["api", "scripts", "script"], "body");
  const api = parseApi(value.api, "body.api");
  if (value.script !== undefined) return { api, scripts: [parseScript(value.script, "body.script")] };
  if (!Array.isArray(value.scripts)) fail("body.scripts", "an array of scripts");
  return { api, scripts: value.scripts.map((s, i) => parseScript(s, `body.scripts[${i}]`)) };
}

export function parseConfigPatch(value: unknown): MockConfigPatch {
  if (!isRecord(value)) fail("body", "an object");
  checkKeys(
    value,
    [
      "strict",
      "apiKey",
      "chunkDelayMs",
      "validate",
      "models",
      "openaiReasoningField",
      "countTokens",
      "remoteSummarizer",
      "remoteSummary",
      "unscripted",
    ],
    "body",
  );
  const patch: MockConfigPatch = {};
  for (const key of ["strict", "validate"] as const) {
    const v = value[key];
    if (v === undefined) continue;
    if (typeof v !== "boolean") fail(`body.${key}`, "a boolean");
    patch[key] = v;
  }
  if (value.apiKey !== undefined) {
    if (value.apiKey !== null && typeof value.apiKey !== "string") fail("body.apiKey", "a string or null");
    patch.apiKey = value.apiKey;
  }
  const chunkDelayMs = optNumber(value, "chunkDelayMs", "body");
  if (chunkDelayMs !== undefined) patch.chunkDelayMs = chunkDelayMs;
  if (value.openaiReasoningField !== undefined) {
    const field = value.openaiReasoningField;
    if (field !== "reasoning_content" && field !== "reasoning") {
      fail("body.openaiReasoningField", `"reasoning_content" or "reasoning"`);
    }
    patch.openaiReasoningField = field;
  }
  if (value.countTokens !== undefined) {
    const v = value.countTokens;
    if (v !== "chars" && v !== "fail" && !(typeof v === "number" && Number.isInteger(v) && v >= 0)) {
      fail("body.countTokens", `"chars", "fail" or a whole number`);
    }
    patch.countTokens = v;
  }
  if (value.remoteSummarizer !== undefined) {
    const modes = ["ok", "http-500", "bad-json", "no-summary", "no-cors"] as const;
    const mode = modes.find((m) => m === value.remoteSummarizer);
    if (!mode) fail("body.remoteSummarizer", modes.map((m) => `"${m}"`).join(", "));
    patch.remoteSummarizer = mode;
  }
  const remoteSummary = optString(value, "remoteSummary", "body");
  if (remoteSummary !== undefined) patch.remoteSummary = remoteSummary;
  if (value.unscripted !== undefined) {
    if (value.unscripted !== "echo" && value.unscripted !== "fidelity") fail("body.unscripted", `"echo" or "fidelity"`);
    patch.unscripted = value.unscripted;
  }
  if (value.models !== undefined) {
    const models = value.models;
    if (!isRecord(models)) fail("body.models", "an object");
    checkKeys(models, APIS, "body.models");
    patch.models = {};
    for (const api of APIS) {
      const list = models[api];
      if (list === undefined) continue;
      if (!Array.isArray(list) || !list.every((m): m is string => typeof m === "string")) {
        fail(`body.models.${api}`, "an array of strings");
      }
      patch.models[api] = list;
    }
  }
  return patch;
}
