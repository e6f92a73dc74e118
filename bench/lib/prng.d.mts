/** Types for prng.mjs (plain JavaScript, so Node runs it without a build step). */
export type Rng = {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [lo, hi], both included. */
  int(lo: number, hi: number): number;
  pick<T>(list: readonly T[]): T;
  chance(p: number): boolean;
};

export declare function rng(seed: number): Rng;
