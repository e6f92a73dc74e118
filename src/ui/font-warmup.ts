/**
 * Font look-ups ahead of need. In a fresh tab the browser knows no font yet: on Linux and Windows
 * the first text laid out in each face and size (a "strike": family, size, weight, style) costs a
 * synchronous round trip to the browser's font service, a few ms each on a busy machine, and the
 * first layout of a chat needed 13–19 of them at once (40–60 ms in one task, the longest of an
 * open); a character the face lacks (✎, ↩) is one more, for a fallback face. So the page remembers
 * the strikes its screens used and the characters beyond ASCII shown in each (localStorage), and
 * the next time it opens, while start-up waits for the database, lays them out a few strikes per
 * task in a hidden box. A first visit warms nothing; nothing here changes what is shown.
 */
import { useEffect } from "react";
import { nextTask } from "../state/app/next-task";

const STORAGE_KEY = "grove.fontStrikes.v1";
/** Strikes remembered (the newest kept): a chat with every kind of Markdown uses about 30. */
export const FONT_STRIKES_KEPT = 48;
/** Strikes laid out per task: each may be a round trip or two to the font service. */
const PER_TASK = 3;
/** Characters beyond ASCII remembered per strike. */
const RARE_KEPT = 12;

/**
 * A strike as CSS `font` shorthand (`italic 700 15px system-ui, sans-serif`), and the characters
 * beyond ASCII seen in it.
 */
export type FontStrike = { font: string; rare: string };

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

function stored(): FontStrike[] {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    const list: unknown = raw ? JSON.parse(raw) : [];
    if (!Array.isArray(list)) return [];
    return list.filter((s): s is FontStrike => typeof s?.font === "string" && typeof s?.rare === "string");
  } catch {
    return [];
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
function rememberWhenIdle(): () => void {
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

/** Lays out every remembered strike's text, PER_TASK per task, in a hidden box; then removes it. */
export async function warmFontStrikes(): Promise<void> {
  const strikes = stored();
  if (strikes.length === 0) return;
  const box = document.createElement("div");
  box.setAttribute("aria-hidden", "true");
  box.style.cssText = "position:absolute;left:-10000px;top:0;width:400px;visibility:hidden;pointer-events:none";
  document.body.append(box);
  try {
    for (let i = 0; i < strikes.length; i += PER_TASK) {
      await nextTask();
      for (const { font, rare } of strikes.slice(i, i + PER_TASK)) {
        const span = document.createElement("span");
        span.style.font = font;
        span.textContent = `Aa ${rare}`;
        box.append(span);
      }
      // Reading a size lays the box out now, in this task.
      void box.offsetHeight;
    }
  } finally {
    box.remove();
  }
}

/** How long after a chat shows (ms) its strikes are remembered: its code is coloured by then. */
const REMEMBER_AFTER_MS = 2_000;

/**
 * Remembers the strikes on screen a little after `screen` changes (a chat opened, read whole),
 * when the page is idle.
 */
export function useRememberedFontStrikes(screen: string): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again for each new screen
  useEffect(() => {
    let cancel: (() => void) | undefined;
    const timer = setTimeout(() => {
      if (typeof requestIdleCallback === "function") cancel = rememberWhenIdle();
      else rememberFontStrikes();
    }, REMEMBER_AFTER_MS);
    return () => {
      clearTimeout(timer);
      cancel?.();
    };
  }, [screen]);
}
