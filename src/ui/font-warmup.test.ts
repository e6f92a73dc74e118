// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { rememberFontStrikes } from "./font-strikes-memory";
import { FONT_STRIKES_KEPT } from "./font-strikes-store";
import { warmFontStrikes } from "./font-warmup";

afterEach(() => {
  localStorage.clear();
  document.body.innerHTML = "";
});

function text(style: string, content: string): void {
  const p = document.createElement("p");
  p.setAttribute("style", style);
  p.textContent = content;
  document.body.append(p);
}

describe("font warm-up", () => {
  it("remembers each strike on screen once, with the characters beyond ASCII shown in it", () => {
    text("font: italic 700 15px serif", "Edit ✎ and ✎ again");
    text("font: normal 400 12px monospace", "plain");
    text("font: normal 400 12px monospace", "↩ back");
    const kept = rememberFontStrikes();
    expect(kept).toHaveLength(2);
    const italic = kept.find((s) => s.font.includes("italic"));
    expect(italic?.font).toContain("15px");
    expect(italic?.rare).toBe("✎");
    expect(kept.find((s) => s.font.includes("12px"))?.rare).toBe("↩");
    // Kept across pages (the next fresh tab reads them).
    expect(JSON.parse(localStorage.getItem("grove.fontStrikes.v1") ?? "[]")).toEqual(kept);
  });

  it("walks every text node of a long screen (its walk pauses every few nodes)", () => {
    for (let i = 0; i < 130; i++) text("font: normal 400 12px monospace", `line ${i}`);
    text("font: normal 700 19px serif", "last ✓");
    const kept = rememberFontStrikes();
    expect(kept.map((s) => s.font)).toEqual([expect.stringContaining("12px"), expect.stringContaining("19px")]);
    expect(kept[1]?.rare).toBe("✓");
  });

  it("adds a later screen's strikes to the ones kept, newest last, at most FONT_STRIKES_KEPT", () => {
    for (let i = 0; i < FONT_STRIKES_KEPT + 5; i++) {
      document.body.innerHTML = "";
      text(`font: normal 400 ${10 + i}px serif`, "a");
      rememberFontStrikes();
    }
    const kept = rememberFontStrikes();
    expect(kept).toHaveLength(FONT_STRIKES_KEPT);
    expect(kept.at(-1)?.font).toContain(`${10 + FONT_STRIKES_KEPT + 4}px`);
    expect(kept.some((s) => s.font.includes(" 10px "))).toBe(false);
  });

  it("lays out every kept strike in a hidden box, then removes the box", async () => {
    text("font: normal 400 13px serif", "x ✓");
    rememberFontStrikes();
    document.body.innerHTML = "";
    const laidOut: string[] = [];
    const observer = new MutationObserver((records) => {
      for (const r of records)
        for (const n of r.addedNodes)
          if (n instanceof HTMLElement && n.parentElement?.getAttribute("aria-hidden") === "true")
            laidOut.push(`${n.style.font}|${n.textContent}`);
    });
    observer.observe(document.body, { subtree: true, childList: true });
    await warmFontStrikes();
    await Promise.resolve();
    observer.disconnect();
    expect(laidOut).toEqual([expect.stringMatching(/13px.*\|Aa ✓$/)]);
    expect(document.body.children).toHaveLength(0);
  });

  it("with nothing kept, or a store that cannot be read, does nothing", async () => {
    await warmFontStrikes();
    localStorage.setItem("grove.fontStrikes.v1", "{not json");
    await warmFontStrikes();
    expect(document.body.children).toHaveLength(0);
  });
});
