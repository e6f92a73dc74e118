/** A long paste attached from its string is the block the same text as a picked `.txt` file becomes (issue 24 item 10). */
import { describe, expect, it } from "vitest";
import { attachFile, pastedTextBlock } from "./attachments";

describe("pastedTextBlock", () => {
  it("is the block attachFile makes of a text/plain file of the same text and name", async () => {
    const text = `${Array.from({ length: 300 }, (_, i) => `${i} INFO ok é 漢 😀`).join("\n")}\n\`\`\`\n`;
    const fromFile = await attachFile(new File([text], "pasted-text.txt", { type: "text/plain" }));
    expect(fromFile).toEqual({ kind: "ok", block: pastedTextBlock("pasted-text.txt", text) });
  });
});
