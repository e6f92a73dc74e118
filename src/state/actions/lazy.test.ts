import { describe, expect, it, vi } from "vitest";
import type { SessionId } from "../../core/session/ids";

vi.mock("./reply", () => ({
  stopReply: vi.fn((id: string) => `stopped ${id}`),
  preloadReplyCode: vi.fn(),
  saveUnsaved: vi.fn(async () => true),
}));

const { saveUnsaved, stopReply } = await import("./lazy");
const reply = await import("./reply");

describe("lazy action stand-ins", () => {
  it("call the real action with the same arguments and resolve to its result", async () => {
    const id = "s1" as SessionId;
    await expect(stopReply(id)).resolves.toBe("stopped s1");
    expect(reply.stopReply).toHaveBeenCalledWith(id);
    await expect(saveUnsaved(id)).resolves.toBe(true);
  });

  it("pass a failure of the real action on to the caller", async () => {
    vi.mocked(reply.saveUnsaved).mockRejectedValueOnce(new Error("disk full"));
    await expect(saveUnsaved("s2" as SessionId)).rejects.toThrow("disk full");
  });
});
