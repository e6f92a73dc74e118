/**
 * Remembering the font strikes a screen uses (font-warmup.ts says why): a walk of the page's text
 * nodes, in idle time, merged into the stored list. A chunk of its own: the first screen only
 * needs the warming half.
 */
import { FONT_STRIKES_KEPT, type FontStrike, RARE_KEPT, STORAGE_KEY, stored } from "./font-strikes-store";

function fontOf(style: CSSStyleDeclaration): string {
  return `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
}

/** Characters of a text node looked at for ones beyond ASCII: a 40 kB tool output repeats its first. */
const RARE_SCAN = 2_000;

function noteRare(rare: Set<string>, text: string): void {
  for (const c of text.slice(0, RARE_SCAN)) {
    if (rare.size >= RARE_KEPT) return;
    if (c > "\u007f" && c.trim() !== "") rare.add(c);
  }
}

/** Text nodes read per step of the walk (each reads a computed style). */
const NODES_PER_STEP = 50;

/**
 * The walk behind rememberFontStrikes: yields after every NODES_PER_STEP text nodes, and at its end
 * returns the strikes kept. A chat can hold thousands of text nodes; walked in one go after a long
 * tool loop it was a 100 ms task.
 */
function* strikesWalk(root: Element): Generator<void, FontStrike[]> {
  const seen = new Map<string, Set<string>>();
  const note = (font: string, text: string) => {
    const rare = seen.get(font) ?? new Set<string>();
    seen.set(font, rare);
    noteRare(rare, text);
  };
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let read = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? "";
    if (!node.parentElement || !text.trim()) continue;
    note(fontOf(getComputedStyle(node.parentElement)), text);
    if (++read % NODES_PER_STEP === 0) yield;
  }
  for (const control of root.querySelectorAll("input, textarea, select, button")) {
    note(fontOf(getComputedStyle(control)), "");
  }
  const before = stored();
  const merged = new Map(before.map((s) => [s.font, new Set(s.rare)]));
  for (const [font, rare] of seen) {
    const all = new Set([...(merged.get(font) ?? []), ...rare]);
    merged.delete(font); // re-added last: the newest
    merged.set(font, new Set([...all].slice(0, RARE_KEPT)));
  }
  const kept = [...merged].slice(-FONT_STRIKES_KEPT).map(([font, rare]) => ({ font, rare: [...rare].join("") }));
  if (JSON.stringify(kept) !== JSON.stringify(before)) {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(kept));
    } catch {
      // Full or blocked storage: the next open is simply not warmed.
    }
  }
  return kept;
}

/**
 * The strikes of the text under `root` (and its form controls), with their characters beyond
 * ASCII, added to the remembered ones (newest last, at most FONT_STRIKES_KEPT). Returns them.
 */
export function rememberFontStrikes(root: Element = document.body): FontStrike[] {
  const walk = strikesWalk(root);
  for (;;) {
    const step = walk.next();
    if (step.done) return step.value;
  }
}

/**
 * rememberFontStrikes in idle time: the walk goes on while the browser's idle period lasts and resumes
 * in the next one. Returns a cancel.
 */
export function rememberWhenIdle(): () => void {
  if (typeof requestIdleCallback !== "function") {
    rememberFontStrikes();
    return () => {};
  }
  const walk = strikesWalk(document.body);
  let idle: number | undefined;
  const run = (deadline: IdleDeadline) => {
    while (deadline.timeRemaining() > 1) if (walk.next().done) return;
    idle = requestIdleCallback(run);
  };
  idle = requestIdleCallback(run);
  return () => {
    if (idle !== undefined) cancelIdleCallback(idle);
    walk.return([]);
  };
}
