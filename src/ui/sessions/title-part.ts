/**
 * A handoff part's title, "Plan (part 2)", split so the list can cut the name and keep "(part 2)"
 * in view (core/handoff/session.ts names the parts this way).
 */
const PART = /^(.*?)\s*(\(part \d+\))$/;

export function splitPart(title: string): { base: string; part: string | null } {
  const m = PART.exec(title);
  return m?.[1] ? { base: m[1], part: m[2]! } : { base: title, part: null };
}
