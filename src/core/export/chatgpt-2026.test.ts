/**
 * A ChatGPT export as it is made in 2025-2026 (testing/fixtures/chatgpt-2026-conversations.json):
 * thinking models, web search with private-use citation markers, legacy browsing citations, code
 * interpreter, uploads and generated images, stub records.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildContext } from "../session/build-context";
import type { ApiKind, Block, Entry, MessageEntry } from "../session/entries";
import { asEntryId, asSessionId, type BlobId } from "../session/ids";
import { buildTreeIndex, pathToRoot } from "../session/tree";
import { parseChatGptExport } from "./chatgpt";
import type { ChatGptAsset } from "./chatgpt-content";
import type { ExportedSession } from "./grove-json";

const fixture = readFileSync(
  fileURLToPath(new URL("./testing/fixtures/chatgpt-2026-conversations.json", import.meta.url)),
  "utf8",
);

function ids() {
  let e = 0;
  let s = 0;
  return { newEntryId: () => asEntryId(`e${++e}`), newSessionId: () => asSessionId(`s${++s}`), now: () => 42 };
}

const PHOTO = "a".repeat(64) as BlobId;
const MANUAL = "b".repeat(64) as BlobId;
const DIAGRAM = "c".repeat(64) as BlobId;
const ASSETS = new Map<string, ChatGptAsset>([
  ["file-7Hc2Q9wRkLpXz3VbN1", { blobId: PHOTO, mimeType: "image/jpeg", size: 1843210, name: "IMG_4821.jpeg" }],
  ["file-Pq8Ls2Mn4Bv6Cx1Zt9", { blobId: MANUAL, mimeType: "application/pdf", size: 482113 }],
  ["file_00000000a1b2c3d4e5f60718293a4b5c", { blobId: DIAGRAM, mimeType: "image/png", size: 1622310 }],
]);

function parse(assets?: ReadonlyMap<string, ChatGptAsset>) {
  const r = parseChatGptExport(fixture, { ...ids(), ...(assets ? { assets } : {}) });
  if (r.kind !== "ok") throw new Error(r.message);
  return r;
}

const messages = (s: ExportedSession | undefined): MessageEntry[] =>
  (s?.entries ?? []).filter((e): e is MessageEntry => e.type === "message");
const texts = (m: MessageEntry | undefined): string =>
  (m?.content ?? []).map((b) => (b.type === "text" ? b.text : "")).join("");
const byTitle = (sessions: readonly ExportedSession[], title: string): ExportedSession => {
  const found = sessions.find((s) => s.session.title === title);
  if (!found) throw new Error(`no session ${title}`);
  return found;
};
const activePath = (s: ExportedSession): Entry[] =>
  s.session.leafId ? pathToRoot(buildTreeIndex(s.entries), s.session.leafId) : [];
/** Every string a block carries, for "nothing of this anywhere" checks. */
const allText = (blocks: readonly Block[]): string => JSON.stringify(blocks);

describe("a 2026 ChatGPT export", () => {
  const { sessions, skipped } = parse();

  it("imports every readable conversation and names the stubs it skipped", () => {
    expect(sessions.map((s) => s.session.title)).toEqual([
      "Trail running shoes for wet rock",
      "Signal Sciences acquisition",
      "Plot a sine wave",
      "Photo of my bike chain",
      "Infinitely many primes",
    ]);
    expect(skipped).toEqual([
      { title: "Corrupted entry", reason: "no messages" },
      { title: "Broken record", reason: "no messages" },
    ]);
  });

  it("keeps the hidden system prompt and custom instructions hidden", () => {
    const trail = byTitle(sessions, "Trail running shoes for wet rock");
    const first = messages(trail)[0];
    expect(first?.parentId).toBeNull();
    expect(texts(first)).toMatch(/^Which trail running shoes/);
    expect(allText(trail.entries.flatMap((e) => (e.type === "message" ? e.content : [])))).not.toMatch(
      /fell runner in Cumbria|Metric units/,
    );
  });

  it("folds thoughts into a thinking block on the reply they precede, labelled by the recap; never a bubble", () => {
    const trail = byTitle(sessions, "Trail running shoes for wet rock");
    const all = messages(trail);
    // No entry is only reasoning, a recap or a placeholder.
    for (const m of all) {
      expect(m.content.some((b) => b.type !== "thinking")).toBe(true);
      expect(texts(m)).not.toMatch(/omitted|Thought for/);
    }
    const search = all.find((m) => m.content.some((b) => b.type === "tool_call"));
    expect(search?.content[0]).toEqual({
      type: "thinking",
      text: "Searching for wet-rock grip tests\n\nThe user runs on Lake District rock, which is often wet slate and greasy. I should look for independent wet-grip tests rather than brand claims.",
    });
    const answer = all.find((m) => texts(m).startsWith("For wet rock"));
    expect(answer?.content[0]).toEqual({
      type: "thinking",
      text: "Comparing outsole compounds\n\nBoth tests rank sticky rubber above lug depth on wet rock. Deep lugs help in mud, not on slate.",
      label: "Thought for 16s",
    });
    expect(answer?.model).toBe("gpt-5-thinking");
  });

  it("lets empty thoughts vanish, recap and all", () => {
    const mud = messages(byTitle(sessions, "Trail running shoes for wet rock")).find((m) =>
      texts(m).startsWith("For deep mud"),
    );
    expect(mud?.content).toEqual([
      { type: "text", text: "For deep mud, lug depth wins: look for 6–8 mm lugs with wide spacing so the mud sheds." },
    ]);
  });

  it("keeps the regenerated answer as a sibling with its own reasoning, and opens on current_node", () => {
    const trail = byTitle(sessions, "Trail running shoes for wet rock");
    const question = messages(trail)[0];
    const answers = messages(trail).filter((m) => m.parentId === question?.id);
    expect(answers).toHaveLength(2);
    expect(answers[1]?.content[0]).toMatchObject({ type: "thinking", label: "Thought for 2s" });
    expect(texts(answers[1])).toMatch(/^Short answer/);
    const path = activePath(trail).filter((e): e is MessageEntry => e.type === "message");
    expect(texts(path.at(-1))).toMatch(/^For deep mud/);
  });

  it("folds web.run traffic as a tool call (its JSON arguments) and a result listing what it found", () => {
    const all = messages(byTitle(sessions, "Trail running shoes for wet rock"));
    const call = all.flatMap((m) => m.content).find((b) => b.type === "tool_call");
    expect(call).toMatchObject({
      name: "web.run",
      args: {
        search_query: [{ q: "trail running shoes wet rock grip test 2025" }, { q: "Megagrip vs FriXion wet slate" }],
      },
    });
    const result = all.find((m) => m.role === "tool");
    expect(result?.content).toEqual([
      {
        type: "tool_result",
        callId: call?.type === "tool_call" ? call.id : "",
        toolName: "web.run",
        text: "The Best Trail Running Shoes of 2026, Tested — https://www.runnersworld.com/gear/a2074/best-trail-running-shoes/\nWet rock grip test: 12 shoes on Borrowdale slate — https://fellrunner.example.org/tests/wet-rock-2025",
        isError: false,
      },
    ]);
  });

  it("turns private-use cite markers into numbered footnotes with title and URL, names entities, lists a navlist", () => {
    const answer = texts(
      messages(byTitle(sessions, "Trail running shoes for wet rock")).find((m) => texts(m).startsWith("For wet rock")),
    );
    expect(answer).toContain("consistently top wet-grip tests[^1][^2]. In the Lake District, Inov-8 is popular");
    expect(answer).toContain("stays tacky on greasy slate[^3].");
    expect(answer).toContain(
      "[^1]: [The Best Trail Running Shoes of 2026, Tested](https://www.runnersworld.com/gear/a2074/best-trail-running-shoes/) — Runner's World",
    );
    expect(answer).toContain(
      "[^2]: [Wet rock grip test: 12 shoes on Borrowdale slate](https://fellrunner.example.org/tests/wet-rock-2025) — fellrunner.example.org",
    );
    expect(answer).toContain(
      "Recent reviews:\n\n- [Bushido III review: a sticky, stiff mountain shoe](https://news.example.com/bushido-iii-review) — Trail News",
    );
    // The navlist item with a javascript: URL is dropped; ChatGPT's tracking parameter too.
    expect(answer).not.toMatch(/javascript|Shady|utm_source/);
    expect(answer).not.toMatch(/[\uE200-\uE202]/);
  });

  it("turns 【n†source】 markers into footnotes by metadata.citations (code-point offsets), dropping those without a page", () => {
    const reply = messages(byTitle(sessions, "Signal Sciences acquisition")).at(-1);
    expect(texts(reply)).toBe(
      "Signal Sciences 🛡️ was founded in 2014 by Andrew Peterson, Nick Galbreath and Zane Lackey[^1][^2]. " +
        "Fastly completed its acquisition on October 1, 2020, for about $775 million[^3]. " +
        "The product now ships as Fastly Next-Gen WAF.\n\n" +
        "[^1]: [Signal Sciences - Crunchbase Company Profile \\& Funding](https://www.crunchbase.com/organization/signal-sciences)\n" +
        "[^2]: [Demand More from Your WAF - Signal Sciences now part of Fastly](https://www.signalsciences.com/)\n" +
        "[^3]: [Fastly Completes Acquisition of Signal Sciences | Fastly](https://www.fastly.com/press/press-releases/fastly-completes-acquisition-signal-sciences)",
    );
    // The browsing tool's own output stays as the tool gave it, folded.
    const browse = messages(byTitle(sessions, "Signal Sciences acquisition")).find((m) => m.role === "tool");
    expect(browse?.content[0]).toMatchObject({ type: "tool_result", toolName: "browser" });
  });

  it("keeps a code node's language: the code interpreter's call, and code shown to the user", () => {
    const all = messages(byTitle(sessions, "Plot a sine wave"));
    expect(all[1]?.content[0]).toMatchObject({
      type: "tool_call",
      name: "python",
      args: { language: "python", code: expect.stringContaining("np.linspace") },
    });
    expect(all[2]?.content).toEqual([
      {
        type: "tool_result",
        callId: all[1]?.content[0]?.type === "tool_call" ? all[1].content[0].id : "",
        toolName: "python",
        text: "0.9999685283773307",
        isError: false,
      },
    ]);
    expect(texts(all.at(-1))).toMatch(/^```typescript\nconst sine = /);
  });

  it("without the .zip, names the uploaded photo and PDF and the generated image in place", () => {
    const all = messages(byTitle(sessions, "Photo of my bike chain"));
    expect(texts(all[0])).toBe(
      "[image: IMG_4821.jpeg — not in this export]\n\nWhat's wrong with my chain? The service manual is attached.\n\n[file: service-manual.pdf]",
    );
    expect(texts(all[1])).toBe(
      "The chain is dry and the third cog is worn; the manual says to replace the chain at 0.5% stretch[^1].\n\n[^1]: service-manual.pdf",
    );
    const generated = all.find((m) => m.role === "tool");
    expect(generated?.content).toEqual([
      expect.objectContaining({
        type: "tool_result",
        text: "[image: file_00000000a1b2c3d4e5f60718293a4b5c — not in this export]",
      }),
    ]);
  });

  it("with the .zip's files, the photo and the generated image are images and the PDF a document", () => {
    const all = messages(byTitle(parse(ASSETS).sessions, "Photo of my bike chain"));
    expect(all[0]?.content).toEqual([
      {
        type: "image",
        blobId: PHOTO,
        mimeType: "image/jpeg",
        name: "IMG_4821.jpeg",
        size: 1843210,
        width: 1536,
        height: 2048,
      },
      { type: "text", text: "What's wrong with my chain? The service manual is attached." },
      { type: "document", blobId: MANUAL, mimeType: "application/pdf", name: "service-manual.pdf", size: 482113 },
    ]);
    const generated = all.find((m) => m.role === "tool");
    expect(generated?.content).toEqual([
      {
        type: "image",
        blobId: DIAGRAM,
        mimeType: "image/png",
        name: "file_00000000a1b2c3d4e5f60718293a4b5c",
        size: 1622310,
        width: 1024,
        height: 1024,
      },
    ]);
    expect(all.find((m) => m.content.some((b) => b.type === "tool_call"))?.content[0]).toMatchObject({
      name: "t2uay3k.sj1i4kz",
      args: { prompt: expect.stringContaining("rear derailleur"), size: "1024x1024" },
    });
  });

  it("a reply stopped while thinking is an unfinished reply holding the thinking", () => {
    const [question, reply] = messages(byTitle(sessions, "Infinitely many primes"));
    expect(reply?.parentId).toBe(question?.id);
    expect(reply?.status).toBe("interrupted");
    expect(reply?.content).toEqual([
      {
        type: "thinking",
        text: "Recalling Euclid's argument\n\nAssume finitely many primes p1…pn and consider their product plus one.",
      },
    ]);
  });

  it.each<ApiKind>(["openai-responses", "openai-chat", "anthropic-messages"])(
    "continuing any of them sends no placeholder, no reasoning and no marker to %s",
    (targetApi) => {
      for (const s of parse(ASSETS).sessions) {
        const ctx = buildContext(activePath(s), { systemPrompt: "", targetApi });
        const sent = JSON.stringify(ctx.messages);
        expect(sent).not.toMatch(/omitted\]|Thought for|reasoning_recap|[\uE200-\uE202]/);
        // Citation markers are gone from replies (a browsing tool's own output keeps its text).
        const replies = JSON.stringify(ctx.messages.filter((m) => m.role === "assistant"));
        expect(replies).not.toMatch(/【[^】]*†/);
        // The imported thinking was signed by no api: it goes nowhere.
        const types = ctx.messages.flatMap((m) => m.content.map((b: { type: string }) => b.type));
        expect(types).not.toContain("thinking");
        for (const m of ctx.messages) expect(m.content.length).toBeGreaterThan(0);
      }
    },
  );
});
