import { describe, expect, it } from "vitest";
import { finishHandoff } from "./finish";

const DOC = "## Goal\nShip v2.\n\n## Next steps\n1. Write the tests.";

describe("finishHandoff", () => {
  it("returns the document as written, trimmed", () => {
    expect(finishHandoff(`\n\n${DOC}\n`)).toEqual({ kind: "document", document: DOC });
  });

  it("drops a lead-in line and <handoff> tags the model added", () => {
    expect(finishHandoff(`Here is the handoff document:\n\n<handoff>\n${DOC}\n</handoff>`)).toEqual({
      kind: "document",
      document: DOC,
    });
  });

  it("is empty for empty or junk output (the caller falls back to compaction)", () => {
    for (const junk of ["", "  \n", "## Goal\n## Next steps", "<handoff></handoff>", "…"]) {
      expect(finishHandoff(junk)).toEqual({ kind: "empty" });
    }
  });
});
