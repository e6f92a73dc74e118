/**
 * One context plan, three readers: for random trees, what the chat dims, what the graph shades
 * and what buildContext sends agree (issue 9, "one rule, one place"). Every message carries a
 * unique marker, so "sent" can be checked on the request text itself, and joins by contiguity.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldableRegion } from "../../core/compaction/cut-point";
import { foldedSpans } from "../../core/graph/folded";
import { buildContext } from "../../core/session/build-context";
import { contextBlockText } from "../../core/session/context";
import type { Entry, MessageStatus } from "../../core/session/entries";
import type { EntryId } from "../../core/session/ids";
import { isSkippedMessage, planContext } from "../../core/session/plan-context";
import { buildTreeIndex, pathToRoot } from "../../core/session/tree";
import { a, at, branchSummary, compaction, type EntrySpec, handoff, u } from "../../core/testing/entries";
import { type DisplayRow, displayRows, type EntryRow } from "./display-rows";

const marker = (id: string) => `⟦${id}⟧`;

type NodeSpec = {
  parent: number;
  kind: "user" | "assistant" | "continuation" | "compaction" | "branch_summary" | "handoff";
  status: MessageStatus | "empty-error";
  pick: number;
  kept: number[];
  firstKept: "null" | "pick" | "missing";
};

const nodeSpec: fc.Arbitrary<NodeSpec> = fc.record({
  parent: fc.nat(),
  kind: fc.constantFrom(
    "user",
    "user",
    "assistant",
    "assistant",
    "continuation",
    "continuation",
    "compaction",
    "branch_summary",
    "handoff",
  ),
  status: fc.constantFrom<NodeSpec["status"]>("complete", "complete", "stopped", "error", "empty-error"),
  pick: fc.nat(),
  kept: fc.array(fc.nat(), { maxLength: 3 }),
  firstKept: fc.constantFrom<NodeSpec["firstKept"]>("pick", "pick", "null", "missing"),
});

/** A random tree (each entry under a random earlier one, mostly the one just before) and a leaf. */
const randomTree = fc
  .tuple(fc.array(nodeSpec, { minLength: 1, maxLength: 30 }), fc.nat(), fc.boolean())
  .map(([specs, leafPick, chain]) => {
    const entries: Entry[] = [];
    specs.forEach((s, i) => {
      const id = `e${i}`;
      const parent = i === 0 ? null : (entries[chain ? i - 1 : s.parent % i] as Entry);
      const earlier = parent ? pathToRoot(buildTreeIndex(entries), parent.id) : [];
      // Half the picks among the last few entries, where cuts and joins meet.
      const pickEarlier = (n: number) =>
        (n % 2 === 0 ? earlier[earlier.length - 1 - ((n >> 1) % 4)] : earlier[(n >> 1) % Math.max(1, earlier.length)])
          ?.id ?? "missing";
      const status: MessageStatus = s.status === "empty-error" ? "error" : s.status;
      const content = s.status === "empty-error" ? [] : marker(id);
      let spec: EntrySpec;
      switch (s.kind) {
        case "user":
          spec = u(id, content, { status });
          break;
        case "assistant":
          spec = a(id, content, { status, ...(s.status === "stopped" ? { stopReason: "length" as const } : {}) });
          break;
        case "continuation": {
          // Mostly the reply just before (what Continue writes), sometimes any earlier entry.
          const continues = parent && s.pick % 3 !== 0 ? parent.id : pickEarlier(s.pick);
          spec = a(id, content, { status, continues: continues as EntryId });
          break;
        }
        case "compaction":
          spec = compaction(id, {
            summary: "summary",
            firstKept: s.firstKept === "null" ? null : s.firstKept === "missing" ? "missing" : pickEarlier(s.pick),
            kept: s.kept.map(pickEarlier),
          });
          break;
        case "branch_summary":
          spec = branchSummary(id, marker(id));
          break;
        case "handoff":
          spec = handoff(id, marker(id));
          break;
      }
      entries.push(at(spec, parent?.id ?? null, i + 1));
    });
    const leaf = entries[leafPick % entries.length] as Entry;
    return { entries, path: pathToRoot(buildTreeIndex(entries), leaf.id) };
  });

/** Whether an entry puts text of its own in the request when sent (a skipped message does not). */
const hasMarker = (e: Entry) => e.type !== "compaction" && !(e.type === "message" && isSkippedMessage(e));

const members = (row: EntryRow): Entry[] => [row.entry, ...row.continuations];

function requestText(path: readonly Entry[]): string {
  return buildContext(path, { systemPrompt: "", targetApi: "openai-chat" })
    .messages.flatMap((m) => m.content.map(contextBlockText))
    .join("\n");
}

const entryRows = (rows: readonly DisplayRow[]): EntryRow[] => rows.filter((r): r is EntryRow => r.kind === "entry");

describe("the context plan: chat, graph, compactor and request agree (random trees)", () => {
  it("a message is in the request exactly when its row is not dimmed as folded; joined rows are joined text", () => {
    fc.assert(
      fc.property(randomTree, ({ path }) => {
        const text = requestText(path);
        const rows = entryRows(displayRows(path));
        const rowOf = new Map<EntryId, EntryRow>();
        for (const row of rows) for (const m of members(row)) rowOf.set(m.id, row);
        // Every entry but compactions has a row.
        for (const e of path) if (e.type !== "compaction") expect(rowOf.has(e.id)).toBe(true);

        for (const row of rows) {
          for (const m of members(row).filter(hasMarker)) {
            expect(text.includes(marker(m.id)), `${m.id} (${row.visibility})`).toBe(row.visibility !== "folded");
          }
        }
        // Joined replies: what the chat shows as one reply runs together in the request, and what
        // runs together in the request is a join of the plan. (The chat starts a new row when
        // something is drawn between, e.g. a failed message, which Grove never writes there.)
        const joins = planContext(path).joins;
        const withText = path.filter(hasMarker);
        for (const [k, x] of withText.entries()) {
          const rx = rowOf.get(x.id) as EntryRow;
          const shown = members(rx).filter(hasMarker);
          const next = shown[shown.indexOf(x) + 1];
          if (next !== undefined && rx.visibility === "sent") {
            expect(text.includes(marker(x.id) + marker(next.id)), `${x.id}+${next.id} joined in the chat`).toBe(true);
          }
          for (const y of withText.slice(k + 1)) {
            if (!text.includes(marker(x.id) + marker(y.id))) continue;
            expect(joins.get(y.id), `${x.id}+${y.id} joined in the request`).toBe(joins.get(x.id) ?? x.id);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it("the compactor folds from where the chat's sent rows start", () => {
    fc.assert(
      fc.property(randomTree, ({ path }) => {
        const start = foldableRegion(path).start;
        const visibility = new Map<EntryId, string>();
        for (const row of entryRows(displayRows(path)))
          for (const m of members(row)) visibility.set(m.id, row.visibility);
        path.forEach((e, i) => {
          if (e.type === "compaction") return;
          expect(visibility.get(e.id) === "sent", `${e.id} at ${i}, region from ${start}`).toBe(i >= start);
        });
      }),
      { numRuns: 300 },
    );
  });

  it("the graph shades as folded only entries the chat dims; with cuts Grove writes, exactly those", () => {
    fc.assert(
      fc.property(randomTree, ({ entries, path }) => {
        const spans = foldedSpans(buildTreeIndex(entries));
        const dimmed = new Set<EntryId>();
        for (const row of entryRows(displayRows(path)))
          if (row.visibility !== "sent") for (const m of members(row)) dimmed.add(m.id);
        const latest = planContext(path).compaction;
        for (const id of latest ? (spans.get(latest.id) ?? []) : []) {
          const e = path.find((x) => x.id === id);
          expect(e, `${id} is on the path`).toBeDefined();
          if (e?.type !== "compaction") expect(dimmed.has(id), `${id} shaded but sent`).toBe(true);
        }

        // Cuts Grove writes never move back: each compaction's kept region starts at or after the
        // previous one's (cutAfterEntry refuses an entry before the region). Then the spans of the
        // compactions on the path tile exactly what the chat dims.
        const cuts = path.flatMap((e, i) =>
          e.type === "compaction" ? [planContext(path.slice(0, i + 1)).keptStart] : [],
        );
        if (cuts.some((c, k) => k > 0 && c < (cuts[k - 1] ?? 0))) return;
        const shaded = new Set<EntryId>();
        for (const e of path) if (e.type === "compaction") for (const id of spans.get(e.id) ?? []) shaded.add(id);
        const shadedMessages = path.filter((e) => e.type !== "compaction" && shaded.has(e.id)).map((e) => e.id);
        expect(shadedMessages).toEqual(path.filter((e) => dimmed.has(e.id)).map((e) => e.id));
      }),
      { numRuns: 300 },
    );
  });
});
