/**
 * Deterministic synthetic sessions in the app's row shapes (src/core/session/entries.ts):
 * a long active path (user/assistant alternating, root first) with alternative subtrees hanging off
 * it, realistic text lengths, Markdown with fenced code blocks, lists, headings and tables.
 * Same seed, same session (ids included), so runs compare.
 */

import { rng } from "./prng.mjs";

const hex = (n, width) => n.toString(16).padStart(width, "0");

/** A UUIDv7 for `ms` (sortable like the app's ids), random bits from the PRNG. */
function uuidv7At(r, ms) {
  const t = hex(ms, 12);
  const randA = hex(r.int(0, 0xfff), 3);
  const variant = hex(0x8000 | r.int(0, 0x3fff), 4);
  const tail = hex(r.int(0, 0xffffff), 6) + hex(r.int(0, 0xffffff), 6);
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${randA}-${variant}-${tail}`;
}

// ---- text ------------------------------------------------------------------------------------

const WORDS = (
  "the a of to and in that is for it with as on be this are by we you can not or from at which " +
  "function state component render query index session entry branch tree path leaf parent child " +
  "cache worker token model context prompt reply stream buffer array map set promise async await " +
  "database transaction cursor key range schema version upgrade migration error retry timeout " +
  "request response header body payload json parse serialize compile bundle module import export " +
  "type interface generic union value reference memory allocation garbage collector thread event " +
  "loop callback listener handler scroll frame layout paint virtual list row height offset measure " +
  "performance latency throughput benchmark median percentile profile trace flame chart hot path " +
  "simple faster slower because however instead therefore usually often rarely always never also"
).split(" ");

const IDENTS = [
  "sessionId",
  "entries",
  "leafId",
  "buildIndex",
  "parent",
  "children",
  "result",
  "items",
  "config",
  "handler",
  "cache",
  "offset",
  "count",
  "tokens",
  "stream",
  "controller",
];

function sentence(r, min = 6, max = 22) {
  const n = r.int(min, max);
  const words = [];
  for (let i = 0; i < n; i++) {
    let w = r.pick(WORDS);
    if (r.chance(0.04)) w = `\`${r.pick(IDENTS)}${r.chance(0.5) ? "()" : ""}\``;
    else if (r.chance(0.02)) w = `**${w}**`;
    words.push(w);
  }
  const s = words.join(" ");
  return `${s[0].toUpperCase()}${s.slice(1)}${r.chance(0.15) ? "?" : "."}`;
}

function paragraph(r, min = 2, max = 6) {
  const n = r.int(min, max);
  const out = [];
  for (let i = 0; i < n; i++) out.push(sentence(r));
  return out.join(" ");
}

const CODE = {
  ts: (r) => {
    const a = r.pick(IDENTS);
    const b = r.pick(IDENTS);
    return r.pick([
      `const ${a} = await ${b}(${r.pick(IDENTS)}, ${r.int(0, 999)});`,
      `if (${a}.length > ${r.int(1, 64)}) return ${b};`,
      `export function ${a}(${b}: string[]): Map<string, number> {`,
      `  for (const item of ${a}) ${b}.set(item.id, item);`,
      `}`,
      `type ${a[0].toUpperCase()}${a.slice(1)} = { id: string; ${b}: number | null };`,
      `// ${sentence(r, 4, 10)}`,
      `  ${a}.push({ id: "${b}-${r.int(0, 99)}", value: ${r.int(0, 9999)} });`,
    ]);
  },
  python: (r) => {
    const a = r.pick(IDENTS);
    const b = r.pick(IDENTS);
    return r.pick([
      `def ${a}(${b}, limit=${r.int(1, 100)}):`,
      `    return [x for x in ${b} if x.${a} > ${r.int(0, 50)}]`,
      `    ${a} = dict(${b})`,
      `# ${sentence(r, 4, 10)}`,
      `for i, ${a} in enumerate(${b}):`,
      `        print(f"{i}: {${a}!r}")`,
      `import ${a}`,
    ]);
  },
  bash: (r) =>
    r.pick([
      `npm run ${r.pick(["build", "test", "bench", "lint"])} -- --${r.pick(IDENTS)}`,
      `grep -rn "${r.pick(IDENTS)}" src/ | head -${r.int(5, 50)}`,
      `export ${r.pick(IDENTS).toUpperCase()}=${r.int(0, 9999)}`,
      `# ${sentence(r, 4, 10)}`,
      `for f in *.json; do jq '.${r.pick(IDENTS)}' "$f"; done`,
    ]),
  json: (r) => `  "${r.pick(IDENTS)}": ${r.pick([r.int(0, 9999), `"${r.pick(WORDS)}"`, "true", "null", "[1, 2, 3]"])},`,
  rust: (r) =>
    r.pick([
      `fn ${r.pick(IDENTS).toLowerCase()}(${r.pick(IDENTS).toLowerCase()}: &[u8]) -> Result<usize, Error> {`,
      `    let mut ${r.pick(IDENTS).toLowerCase()} = Vec::with_capacity(${r.int(1, 512)});`,
      `    Ok(${r.int(0, 99)})`,
      `}`,
      `// ${sentence(r, 4, 10)}`,
    ]),
};
const LANGS = Object.keys(CODE);

function codeBlock(r, minLines = 4, maxLines = 36) {
  const lang = r.pick(LANGS);
  const n = r.int(minLines, maxLines);
  const lines = [];
  for (let i = 0; i < n; i++) lines.push(CODE[lang](r));
  return `\`\`\`${lang}\n${lines.join("\n")}\n\`\`\``;
}

function list(r) {
  const n = r.int(3, 7);
  const ordered = r.chance(0.4);
  const out = [];
  for (let i = 0; i < n; i++) out.push(`${ordered ? `${i + 1}.` : "-"} ${sentence(r, 4, 16)}`);
  return out.join("\n");
}

function mdTable(r) {
  const cols = r.int(2, 4);
  const rows = r.int(2, 6);
  const head = Array.from({ length: cols }, () => r.pick(IDENTS));
  const out = [`| ${head.join(" | ")} |`, `|${" --- |".repeat(cols)}`];
  for (let i = 0; i < rows; i++) {
    out.push(`| ${Array.from({ length: cols }, () => (r.chance(0.5) ? r.int(0, 9999) : r.pick(WORDS))).join(" | ")} |`);
  }
  return out.join("\n");
}

/** A user turn: usually a short question, sometimes longer with a pasted snippet. ~40–1,200 chars. */
function userText(r) {
  if (r.chance(0.35)) return sentence(r, 5, 18);
  const parts = [paragraph(r, 1, 4)];
  if (r.chance(0.12)) parts.push(codeBlock(r, 2, 12));
  if (r.chance(0.3)) parts.push(sentence(r));
  return parts.join("\n\n");
}

/** An assistant reply: 2–7 blocks of prose, lists, code, the odd heading or table. ~300–4,000 chars. */
function assistantText(r) {
  const parts = [];
  if (r.chance(0.25)) parts.push(`## ${sentence(r, 2, 6).replace(/[.?]$/, "")}`);
  parts.push(paragraph(r, 1, 4));
  const blocks = r.int(1, 5);
  for (let i = 0; i < blocks; i++) {
    const kind = r.next();
    if (kind < 0.3) parts.push(codeBlock(r));
    else if (kind < 0.55) parts.push(list(r));
    else if (kind < 0.6) parts.push(mdTable(r));
    else parts.push(paragraph(r));
  }
  if (r.chance(0.5)) parts.push(paragraph(r, 1, 2));
  return parts.join("\n\n");
}

// ---- entries ---------------------------------------------------------------------------------

const MODEL = { provider: "anthropic", api: "anthropic-messages", model: "claude-sonnet-4-5" };

function message(r, { id, sessionId, parentId, createdAt, role, text }) {
  const base = { id, sessionId, parentId, createdAt, type: "message", role, status: "complete" };
  if (role === "user") return { ...base, content: [{ type: "text", text }] };
  const content = [];
  if (r.chance(0.1)) content.push({ type: "thinking", text: paragraph(r, 2, 6), signature: `sig-${id.slice(-12)}` });
  content.push({ type: "text", text });
  return {
    ...base,
    content,
    ...MODEL,
    usage: { input: r.int(500, 150_000), output: r.int(50, 4000) },
    stopReason: "end",
  };
}

const other = (role) => (role === "user" ? "assistant" : "user");

/**
 * A session of exactly `total` entries: a `pathLength`-message active path (user first) and, on
 * about every `branchEvery`-th path message, 1–3 alternative child subtrees (mostly chains, some
 * forking again) holding the remaining entries. The leaf's text starts with `leafMarker`, the
 * root's with `rootMarker`, so the UI can be watched for them.
 *
 * @returns {{ session: object, entries: object[], path: string[], stats: object }}
 */
export function generateSession({
  seed = 42,
  sessionId,
  title,
  total = 10_000,
  pathLength = 2_000,
  branchEvery = 3,
  startMs = Date.UTC(2025, 0, 6, 9, 0, 0),
  leafMarker,
  rootMarker,
}) {
  if (total < pathLength) throw new Error("total must be >= pathLength");
  const r = rng(seed);
  const entries = [];
  const path = [];
  const STEP = 60_000; // a minute between path messages

  for (let i = 0; i < pathLength; i++) {
    const role = i % 2 === 0 ? "user" : "assistant";
    const createdAt = startMs + i * STEP;
    let text = role === "user" ? userText(r) : assistantText(r);
    if (i === 0 && rootMarker) text = `${rootMarker} ${text}`;
    if (i === pathLength - 1 && leafMarker) text = `${leafMarker} ${text}`;
    const entry = message(r, {
      id: uuidv7At(r, createdAt),
      sessionId,
      parentId: i === 0 ? null : path[i - 1].id,
      createdAt,
      role,
      text,
    });
    entries.push(entry);
    path.push(entry);
  }

  // Branch points and how many alternatives each gets.
  const subtrees = [];
  for (let i = branchEvery - 1; i < pathLength - 1; i += branchEvery) {
    const at = Math.min(pathLength - 2, i + r.int(-1, 1));
    const alternatives = r.int(1, 3);
    for (let k = 0; k < alternatives; k++) subtrees.push({ parent: path[at], k });
  }
  // Split the remaining entries among them (exponential weights, then fix the rounding).
  const remaining = total - pathLength;
  if (subtrees.length > remaining) subtrees.length = remaining;
  const weights = subtrees.map(() => -Math.log(1 - r.next()));
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const spare = remaining - subtrees.length;
  const sizes = weights.map((w) => 1 + Math.floor((w / weightSum) * spare));
  let short = remaining - sizes.reduce((a, b) => a + b, 0);
  while (short > 0) {
    sizes[r.int(0, sizes.length - 1)]++;
    short--;
  }

  let deepest = 0;
  const depth = new Map();
  subtrees.forEach(({ parent, k }, s) => {
    // Alternatives are older than the path child (created 1–59 s after their parent, the path child
    // after 60 s), so the active path is each point's newest version, as after a regenerate/edit.
    let t = parent.createdAt + 1000 * (1 + k * 15 + r.int(0, 14));
    const nodes = [];
    for (let n = 0; n < sizes[s]; n++) {
      const up = n === 0 ? parent : r.chance(0.85) ? nodes[nodes.length - 1] : r.pick(nodes);
      const role = other(up.role);
      t += r.int(5, 40);
      const entry = message(r, {
        id: uuidv7At(r, t),
        sessionId,
        parentId: up.id,
        createdAt: t,
        role,
        text: role === "user" ? userText(r) : assistantText(r),
      });
      depth.set(entry.id, (depth.get(up.id) ?? 0) + 1);
      deepest = Math.max(deepest, depth.get(entry.id));
      nodes.push(entry);
      entries.push(entry);
    }
  });

  const leaf = path[path.length - 1];
  const session = {
    id: sessionId,
    title,
    titleSource: "user",
    createdAt: startMs,
    updatedAt: leaf.createdAt,
    leafId: leaf.id,
  };
  const textChars = entries.reduce(
    (sum, e) =>
      sum + e.content.reduce((s, b) => s + (b.type === "text" || b.type === "thinking" ? b.text.length : 0), 0),
    0,
  );
  const withCode = entries.filter((e) => e.content.some((b) => b.type === "text" && b.text.includes("```"))).length;
  return {
    session,
    entries,
    path: path.map((e) => e.id),
    stats: {
      entries: entries.length,
      pathLength,
      branchPoints: new Set(subtrees.map((s) => s.parent.id)).size,
      alternatives: subtrees.length,
      deepestBranch: deepest,
      textChars,
      withCode,
      jsonBytes: JSON.stringify(entries).length,
    },
  };
}
