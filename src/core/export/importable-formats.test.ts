import { describe, expect, it } from "vitest";
import { IMPORTABLE_FORMATS, importableApps, importableFormatsInFull } from "./importable-formats";

describe("importable formats", () => {
  it("each format's phrase names its app", () => {
    for (const f of IMPORTABLE_FORMATS) expect(f.inFull).toContain(f.app);
  });

  it("names every app, in the short hint and in full", () => {
    expect(importableApps()).toBe("Grove, ChatGPT, Claude.ai, Open WebUI, LibreChat, chatbot-ui or pi");
    const full = importableFormatsInFull();
    expect(full.startsWith("Grove JSON exports; a ChatGPT data export (")).toBe(true);
    expect(full.endsWith("; and pi session .jsonl files")).toBe(true);
    for (const f of IMPORTABLE_FORMATS) expect(full).toContain(f.inFull);
  });
});
