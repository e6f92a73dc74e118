/**
 * Summaries of a V8 CPU profile (CDP Profiler.stop) for bench output: where the main thread of the
 * page spent its time, by function (self) and by named function on the stack (inclusive).
 */

const key = (cf) =>
  `${cf.functionName || "(anonymous)"} ${cf.url ? `${cf.url.split("/").pop()}:${cf.lineNumber + 1}` : ""}`.trim();

/** Milliseconds per sample, attributed to nodes. */
function sampleTimes(profile) {
  const byNode = new Map();
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    // timeDeltas[i] is the time *before* sample i; attribute the following delta to sample i.
    const dt = (timeDeltas[i + 1] ?? 0) / 1000;
    byNode.set(samples[i], (byNode.get(samples[i]) ?? 0) + dt);
  }
  return byNode;
}

/**
 * { totalMs, idleMs, self: [[key, ms]…] (descending), inclusive(names) → Map(name → ms) }.
 * `inclusive` counts a sample once per name even under recursion.
 */
export function summarizeProfile(profile) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const times = sampleTimes(profile);

  const self = new Map();
  let totalMs = 0;
  let idleMs = 0;
  for (const [id, t] of times) {
    const k = key(nodes.get(id).callFrame);
    totalMs += t;
    if (nodes.get(id).callFrame.functionName === "(idle)") idleMs += t;
    self.set(k, (self.get(k) ?? 0) + t);
  }

  const inclusive = (names) => {
    const out = new Map(names.map((n) => [n, 0]));
    for (const [id, t] of times) {
      const seen = new Set();
      for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
        const name = nodes.get(cur).callFrame.functionName;
        if (out.has(name) && !seen.has(name)) {
          seen.add(name);
          out.set(name, out.get(name) + t);
        }
      }
    }
    return out;
  };

  return { totalMs, idleMs, self: [...self].sort((a, b) => b[1] - a[1]), inclusive };
}
