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

  it("pinned, archived, the chat's parameters and pi's header travel with the settings", () => {
    const full: Session = {
      ...session,
      pinned: true,
      archived: true,
      params: { temperature: 0.2, maxOutputTokens: 900, thinking: { kind: "openai-effort", effort: "high" } },
      piHeader: { cwd: "/home/me/project", version: 3 },
    };
    const meta = sessionMeta(full);
    expect(meta).toMatchObject({
      pinned: true,
      archived: true,
      params: full.params,
      piHeader: full.piHeader,
    });
    expect(mergeSession(undefined, meta, { leafId: leaf, updatedAt: 5 })).toEqual(full);
    // A change to any of them is a new version of the settings record.
    for (const changed of [{ pinned: false }, { archived: false }, { params: { temperature: 1 } }, { piHeader: {} }]) {
      expect(metaDigest({ ...full, ...changed })).not.toBe(metaDigest(full));
    }
    // A chat without them keeps the fingerprint it had before they were synced (nothing is re-sent).
    expect(metaDigest(session)).toBe(
      JSON.stringify({
        id: sid,
        title: "Trip",
        titleSource: "user",
        createdAt: 1,
        systemPrompt: "Be brief.",
        model: { providerId: "anthropic", modelId: "claude" },
        parentSessionId: session.parentSessionId,
      }),
    );
  });

  it("an incoming settings record is merged field by field: it sets every settings field, the rest of the row stays", () => {
    const local: Session = {
      ...session,
      pinned: true,
      archived: true,
      params: { temperature: 0.2 },
      piHeader: { cwd: "/here" },
    };
    // Settings from a device that pinned nothing and set other parameters.
    const incoming = sessionMeta({ ...session, title: "Renamed", params: { temperature: 0.9 } });
    const merged = mergeSession(local, incoming, undefined);
    expect(merged).toEqual({ ...session, title: "Renamed", params: { temperature: 0.9 } });
    // The same device pinning: the other fields it did not change come back as they were.
    const pinnedThere = sessionMeta({ ...local, archived: false });
    expect(mergeSession(local, pinnedThere, undefined)).toEqual({ ...local, archived: undefined });
    expect(mergeSession(local, pinnedThere, undefined)).not.toHaveProperty("archived");
    // A row field the settings record does not carry (nor the leaf record) is kept.
    const withExtra = { ...local, futureField: "kept" } as Session;
    expect(mergeSession(withExtra, incoming, undefined)).toMatchObject({
      futureField: "kept",
      leafId: leaf,
      updatedAt: 5,
    });
  });
});
