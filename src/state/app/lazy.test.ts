import { describe, expect, it, vi } from "vitest";
import type { SessionId } from "../../core/session/ids";

vi.mock("../reply/unsaved", () => ({
  saveUnsaved: vi.fn(async () => true),
}));

const { saveUnsaved } = await import("./lazy");
const unsaved = await import("../reply/unsaved");

describe("lazy action stand-ins", () => {
  it("call the real action with the same arguments and resolve to its result", async () => {
    const id = "s1" as SessionId;
    await expect(saveUnsaved(id)).resolves.toBe(true);
    expect(unsaved.saveUnsaved).toHaveBeenCalledWith(id);
  });

  it("pass a failure of the real action on to the caller", async () => {
    vi.mocked(unsaved.saveUnsaved).mockRejectedValueOnce(new Error("disk full"));
    await expect(saveUnsaved("s2" as SessionId)).rejects.toThrow("disk full");
  });
});
