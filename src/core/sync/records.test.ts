import { describe, expect, it } from "vitest";
import type { Session } from "../session/entries";
import { asEntryId, asSessionId } from "../session/ids";
import { leafDigest, mergeSession, metaDigest, recordRef, recordSessionId, refOf, sessionMeta } from "./records";

const sid = asSessionId("0190a0a0-0000-7000-8000-000000000001");
const leaf = asEntryId("0190a0a0-0000-7000-8000-000000000011");
const session: Session = {
  id: sid,
  title: "Trip",
  titleSource: "user",
  createdAt: 1,
  updatedAt: 5,
  leafId: leaf,
  systemPrompt: "Be brief.",
  model: { providerId: "anthropic", modelId: "claude" },
  parentSessionId: asSessionId("0190a0a0-0000-7000-8000-000000000002"),
};

describe("row ↔ record mapping", () => {
  it("a session's settings and its position are two records that rebuild the same row", () => {
    const meta = sessionMeta(session);
    expect(meta).not.toHaveProperty("leafId");
    expect(meta).not.toHaveProperty("updatedAt");
    expect(mergeSession(undefined, meta, { leafId: leaf, updatedAt: 5 })).toEqual(session);
  });

  it("a settings change and a leaf change have separate fingerprints (one device's rename and another's message both survive)", () => {
    const renamed = { ...session, title: "Alps" };
    const moved = { ...session, leafId: asEntryId("x"), updatedAt: 6 };
    expect(metaDigest(renamed)).not.toBe(metaDigest(session));
    expect(leafDigest(renamed)).toBe(leafDigest(session));
    expect(leafDigest(moved)).not.toBe(leafDigest(session));
    expect(metaDigest(moved)).toBe(metaDigest(session));
    // Field order does not matter: the digest is built in a fixed order.
    const reordered = JSON.parse(JSON.stringify({ ...session, title: session.title })) as Session;
    expect(metaDigest(reordered)).toBe(metaDigest(session));
  });

  it("merging keeps what is known here for the part not received yet", () => {
    const local = { ...session, leafId: asEntryId("local-leaf"), updatedAt: 9 };
    const merged = mergeSession(local, { ...sessionMeta(session), title: "From the other device" }, undefined);
    expect(merged).toMatchObject({ title: "From the other device", leafId: "local-leaf", updatedAt: 9 });
    expect(mergeSession(undefined, undefined, { leafId: leaf, updatedAt: 1 })).toBeUndefined();
  });

  it("names records by kind and id, and knows their session", () => {
    expect(refOf("entry", "e1")).toBe("e:e1");
    expect(recordRef({ kind: "leaf", id: sid, hlc: "h", leafId: null, updatedAt: 1 })).toBe(`f:${sid}`);
    expect(recordRef({ kind: "blob", id: "b1", row: {} })).toBe("b:b1");
    expect(recordSessionId({ kind: "blob", id: "b1", row: {} })).toBeUndefined();
    expect(recordSessionId({ kind: "label", id: leaf, hlc: "h", sessionId: sid, text: "x" })).toBe(sid);
  });
});
