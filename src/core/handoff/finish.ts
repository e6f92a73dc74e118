/**
 * What the model wrote for a handoff (DESIGN §5): the document, cleaned, or `empty` — the caller
 * then falls back to compaction in place, with a notice. Cleaning removes what a model tends to add
 * around the document (a "Here is the handoff document:" lead-in, `<handoff>` tags, our own
 * handoff framing echoed back); the document itself is kept as written.
 *
 * Pure: no I/O.
 */
import { hasProse, stripEchoes, stripLeadIn } from "../branch/finish";
import { HANDOFF_CONTEXT } from "../prompts";

const HANDOFF_TAGS = /<\/?(handoff|focus)\b[^<>]*>/gi;

export type HandoffFinish = { kind: "document"; document: string } | { kind: "empty" };

export function finishHandoff(text: string): HandoffFinish {
  let out = typeof text === "string" ? text : "";
  out = stripEchoes(out.replace(HANDOFF_TAGS, ""), [HANDOFF_CONTEXT])
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  out = stripLeadIn(out).trim();
  return hasProse(out) ? { kind: "document", document: out } : { kind: "empty" };
}
