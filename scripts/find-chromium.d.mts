/** Types for find-chromium.mjs (plain JavaScript so Node runs it without a build step). */
export declare const DEBIAN_CHROMIUM: string;

export type FoundChromium =
  | { path: string; source: "env" | "debian" | "playwright" }
  | { missing: string; source: "env" }
  | null;

export declare function findChromium(env?: Record<string, string | undefined>): FoundChromium;
