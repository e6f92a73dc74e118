/**
 * Test helpers: terse entry builders and `linkPath`, which chains specs into a root→leaf path.
 * Used by the tests beside it only; nothing in the app imports this file.
 */
import type {
  Block,
  BranchSummaryEntry,
  CompactionEntry,
  Entry,
  HandoffEntry,
  MessageEntry,
  ThinkingBlock,
} from "../session/entries";
import { asEntryId, asSessionId, type BlobId, type EntryId } from "../session/ids";

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** An entry without its place in the tree: `linkPath` or `at` adds parentId, createdAt, sessionId. */
export type EntrySpec = DistributiveOmit<Entry, "parentId" | "createdAt" | "sessionId">;

export const SESSION = asSessionId("session-1");
export const eid = (s: string): EntryId => asEntryId(s);
export const blobId = (s: string): BlobId => s as BlobId;
export const text = (t: string): Block => ({ type: "text", text: t });

type MessageExtra = Partial<Omit<MessageEntry, "type" | "id" | "role" | "parentId" | "createdAt" | "sessionId">>;

const toBlocks = (content: string | Block[]): Block[] => (typeof content === "string" ? [text(content)] : content);

export function u(id: string, content: string | Block[], extra: MessageExtra = {}): EntrySpec {
  return { type: "message", id: eid(id), role: "user", content: toBlocks(content), status: "complete", ...extra };
}

export function a(id: string, content: string | Block[], extra: MessageExtra = {}): EntrySpec {
  return { type: "message", id: eid(id), role: "assistant", content: toBlocks(content), status: "complete", ...extra };
}

export function tool(id: string, content: Block[], extra: MessageExtra = {}): EntrySpec {
  return { type: "message", id: eid(id), role: "tool", content, status: "complete", ...extra };
}

export function compaction(
  id: string,
  opts: { summary: string; firstKept: string | null; kept?: string[] },
): DistributiveOmit<CompactionEntry, "parentId" | "createdAt" | "sessionId"> {
  return {
    type: "compaction",
    id: eid(id),
    summary: opts.summary,
    shortSummary: opts.summary.slice(0, 40),
    firstKeptEntryId: opts.firstKept === null ? null : eid(opts.firstKept),
    keptUserTurnIds: (opts.kept ?? []).map(eid),
    tokensBefore: 1000,
    tokensAfter: 100,
    reason: "manual",
    model: "test-model",
  };
}

export function branchSummary(
  id: string,
  summary: string,
): DistributiveOmit<BranchSummaryEntry, "parentId" | "createdAt" | "sessionId"> {
  return { type: "branch_summary", id: eid(id), fromId: eid("elsewhere"), summary, model: "test-model" };
}

export function handoff(
  id: string,
  document: string,
): DistributiveOmit<HandoffEntry, "parentId" | "createdAt" | "sessionId"> {
  return {
    type: "handoff",
    id: eid(id),
    document,
    fromSessionId: asSessionId("session-0"),
    fromEntryId: eid("old-leaf"),
  };
}

export const thinking = (t: string, extra: Omit<ThinkingBlock, "type" | "text"> = {}): ThinkingBlock => ({
  type: "thinking",
  text: t,
  ...extra,
});

/** Places one spec in the tree under `parentId` at time `createdAt`. */
export function at(spec: EntrySpec, parentId: string | null, createdAt: number): Entry {
  return { ...spec, sessionId: SESSION, parentId: parentId === null ? null : eid(parentId), createdAt } as Entry;
}

/** Chains specs into a path: each entry's parent is the one before it, createdAt 1, 2, 3, … */
export function linkPath(specs: readonly EntrySpec[]): Entry[] {
  const out: Entry[] = [];
  let parent: EntryId | null = null;
  for (const [i, spec] of specs.entries()) {
    out.push(at(spec, parent, i + 1));
    parent = spec.id;
  }
  return out;
}
