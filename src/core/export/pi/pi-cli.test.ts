/**
 * The real pi CLI continues a Grove-compacted export, and its request to the model carries the
 * user turns Grove's compaction kept verbatim (issue 13, part 1). pi runs in print mode (`-p`)
 * against a tiny recording Chat Completions server on 127.0.0.1, configured as a custom provider
 * in a throwaway agent dir (`PI_CODING_AGENT_DIR/models.json`, pi's documented way).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSessionContext } from "@mariozechner/pi-coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompactionEntry, Entry, Session } from "../../session/entries";
import { asEntryId, asSessionId } from "../../session/ids";
import { exportPiJsonl } from "./export";
import { parsePiJsonl } from "./import";
import { piEntries, piLeaves } from "./testing/pi-sessions";

const CLI = fileURLToPath(
  new URL("../../../../node_modules/@mariozechner/pi-coding-agent/dist/cli.js", import.meta.url),
);
const KEPT_TURN = "Always use pnpm, never npm. The repo lives in ~/work/grove.";

/** A Grove chat whose compaction keeps the first user turn verbatim and folds the rest. */
function groveCompactedChat() {
  const S = asSessionId("0195a000-0000-7000-8000-000000000000");
  const id = (n: number) => asEntryId(`0195a000-0000-7000-8000-00000000000${n}`);
  const base = (n: number, parent: number | null) => ({
    id: id(n),
    sessionId: S,
    parentId: parent === null ? null : id(parent),
    createdAt: 1_760_000_000_000 + n * 1000,
  });
  const say = (n: number, parent: number | null, role: "user" | "assistant", text: string): Entry => ({
    type: "message",
    ...base(n, parent),
    role,
    content: [{ type: "text", text }],
    status: "complete",
    ...(role === "assistant" ? { api: "openai-chat" as const, provider: "mock", model: "mock-model" } : {}),
  });
  const compaction: CompactionEntry = {
    type: "compaction",
    ...base(5, 4),
    summary: "## Goal\nSet up the repository.\n\n## Done\n- installed dependencies",
    shortSummary: "Set up the repository",
    firstKeptEntryId: id(4),
    keptUserTurnIds: [id(1)],
    tokensBefore: 9000,
    tokensAfter: 300,
    reason: "manual",
    model: "mock-model",
  };
  const entries: Entry[] = [
    say(1, null, "user", KEPT_TURN),
    say(2, 1, "assistant", "Understood."),
    say(3, 2, "user", "Install the dependencies."),
    say(4, 3, "assistant", "Installed with pnpm."),
    compaction,
  ];
  const session: Session = {
    id: S,
    title: "Repo setup",
    titleSource: "user",
    createdAt: 1_760_000_000_000,
    updatedAt: 1_760_000_005_000,
    leafId: id(5),
    piHeader: { cwd: "/tmp" },
  };
  return { session, entries, labels: {} };
}

const SSE = [
  { choices: [{ index: 0, delta: { role: "assistant", content: "Next: add lint." }, finish_reason: null }] },
  {
    choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
    usage: { prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 },
  },
]
  .map(
    (c) =>
      `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 0, model: "mock-model", ...c })}\n\n`,
  )
  .join("");

describe("the pi CLI continues a Grove export", () => {
  const requests: unknown[] = [];
  let server: Server;
  let dir: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        requests.push({ url: req.url, body: body ? JSON.parse(body) : null });
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(`${SSE}data: [DONE]\n\n`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    dir = mkdtempSync(join(tmpdir(), "grove-pi-cli-"));
  });
  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the pi CLI in print mode against the recording server; resolves when it exits. */
  function runPi(agentDir: string, extra: readonly string[]): Promise<{ code: number | null; out: string }> {
    const args = [
      CLI,
      ...["--provider", "mock", "--model", "mock-model"],
      ...["--no-tools", "--no-extensions", "--no-skills", "--no-context-files", "--no-prompt-templates", "--no-themes"],
      ...extra,
    ];
    const env = { ...process.env, HOME: dir, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" };
    return new Promise((resolve) => {
      const child = spawn(process.execPath, args, { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
      });
      child.stderr.on("data", (d) => {
        out += d;
      });
      child.on("close", (code) => resolve({ code, out }));
    });
  }

  function writeAgentDir(): string {
    const { port } = server.address() as AddressInfo;
    const agentDir = join(dir, "agent");
    const models = {
      providers: {
        mock: {
          baseUrl: `http://127.0.0.1:${port}/v1`,
          api: "openai-completions",
          apiKey: "test-key",
          compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
          models: [{ id: "mock-model" }],
        },
      },
    };
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(join(agentDir, "models.json"), JSON.stringify(models));
    return agentDir;
  }

  it("sends the kept user turns in the compaction summary pi's model gets", async () => {
    const agentDir = writeAgentDir();
    const sessionFile = join(dir, "grove-export.jsonl");
    writeFileSync(sessionFile, exportPiJsonl(groveCompactedChat()));

    const run = await runPi(agentDir, ["--session", sessionFile, "-p", "What should we do next?"]);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain("Next: add lint.");

    expect(requests).toHaveLength(1);
    const body = (requests[0] as { body: { messages: Array<{ role: string; content: unknown }> } }).body;
    const textOf = (content: unknown): string =>
      typeof content === "string"
        ? content
        : Array.isArray(content)
          ? content.map((p: { text?: string }) => p.text ?? "").join("")
          : "";
    const texts = body.messages.map((m) => textOf(m.content));
    const summary = texts.find((t) => t.includes("<summary>"));
    expect(summary, texts.join("\n---\n")).toBeDefined();
    expect(summary).toContain(`<user_message>\n${KEPT_TURN}\n</user_message>`);
    expect(summary).toContain("Set up the repository.");
    expect(texts.at(-1)).toContain("What should we do next?");

    // What pi appended to Grove's export (its AgentSession's own entries) goes through Grove too.
    expectSameContextAtEveryLeaf(readFileSync(sessionFile, "utf8"));
  }, 120_000);

  it("a session pi's AgentSession wrote itself comes back from Grove with the same context", async () => {
    const agentDir = writeAgentDir();
    const sessions = join(dir, "sessions");
    const run = await runPi(agentDir, ["--session-dir", sessions, "--thinking", "low", "-p", "Hello from pi"]);
    expect(run.code, run.out).toBe(0);
    const [file] = readdirSync(sessions).filter((f) => f.endsWith(".jsonl"));
    if (!file) throw new Error(`pi wrote no session: ${run.out}`);
    const text = readFileSync(join(sessions, file), "utf8");
    expect(text).toContain('"role":"assistant"');
    expectSameContextAtEveryLeaf(text);
  }, 120_000);
});

/** Through Grove and back: pi's context at every leaf is unchanged. */
function expectSameContextAtEveryLeaf(original: string) {
  const parsed = parsePiJsonl(original);
  if (parsed.kind !== "ok") throw new Error(parsed.message);
  const copy = exportPiJsonl(parsed.sessions[0]!);
  const before = piEntries(original);
  const after = piEntries(copy);
  const leaves = piLeaves(before);
  expect(leaves.length).toBeGreaterThan(0);
  for (const leaf of leaves) expect(buildSessionContext(after, leaf.id)).toEqual(buildSessionContext(before, leaf.id));
}
