/**
 * Issue 24.12: an imported date of 1e300 made a chat unopenable ("Invalid time value"). Every
 * format's times, set to numbers and strings no Date can hold, must import as times a Date holds.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { isRepresentableTime } from "../time";
import { parseImportFile } from "./import-file";
import { dateMs, epochMs } from "./message-tree";

const sample = (name: string) => readFileSync(resolve(__dirname, "testing/fixtures", name), "utf8");
const realWorld = (name: string) =>
  readFileSync(resolve(__dirname, "../../../../shared/fixtures/real-world", name), "utf8");

/** Keys that hold times in the formats Grove reads. */
const TIME_KEY = /^(create_time|update_time|created_at|updated_at|createdAt|updatedAt|timestamp|created|updated)$/;

/** Every time in `value` replaced: numbers by 1e300, strings by a date past a Date's range. */
function hostileTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hostileTimes);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (TIME_KEY.test(k) && typeof v === "number") out[k] = 1e300;
    else if (TIME_KEY.test(k) && typeof v === "string") out[k] = "+300000-01-01T00:00:00Z";
    else out[k] = hostileTimes(v);
  }
  return out;
}

const JSON_FILES: Record<string, string> = {
  chatgpt: "chatgpt-2026-conversations.json",
  claude: "claude-2026-conversations.json",
  "open-webui": "open-webui-export.json",
  "librechat tree": "librechat-tree.json",
  "librechat linear": "librechat-linear.json",
  "chatbot-ui": "chatbot-ui-export.json",
};

function expectRepresentable(text: string, name: string): void {
  const r = parseImportFile(text, name, { now: () => 1_700_000_000_000 });
  if (r.kind !== "ok") throw new Error(r.message);
  expect(r.sessions.length).toBeGreaterThan(0);
  for (const s of r.sessions) {
    expect(isRepresentableTime(s.session.createdAt), `${name} session.createdAt`).toBe(true);
    expect(isRepresentableTime(s.session.updatedAt), `${name} session.updatedAt`).toBe(true);
    for (const e of s.entries) expect(isRepresentableTime(e.createdAt), `${name} entry.createdAt`).toBe(true);
  }
}

describe("imported times", () => {
  it("a number or string no Date can hold is not a time", () => {
    expect(epochMs(1e300)).toBeUndefined();
    expect(epochMs(1_700_000_000)).toBe(1_700_000_000_000);
    expect(dateMs(1e300)).toBeUndefined();
    expect(dateMs("+300000-01-01T00:00:00Z")).toBeUndefined();
  });

  for (const [format, file] of Object.entries(JSON_FILES)) {
    it(`${format}: times of 1e300 import as times a Date holds`, () => {
      expectRepresentable(JSON.stringify(hostileTimes(JSON.parse(sample(file)))), file);
    });
  }

  it("pi: timestamps past a Date's range import as times a Date holds", () => {
    const lines = realWorld("pi-session-v1-with-compactions.jsonl")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.stringify(hostileTimes(JSON.parse(l))));
    expectRepresentable(lines.join("\n"), "session.jsonl");
  });
});
