/**
 * A reply in a chat that uses tools (issue 28): the tool loop (core/agent) bound to this app — the
 * chat's provider stream with its tools, the MCP servers (tools/, loaded on demand), the approval
 * dialog, and the tree: every step (the model's reply, each tool's result) is appended as its own
 * entry as it ends, the leaf following. The step in flight shows in the streaming lane and is
 * checkpointed as a checkpoint, so a reload keeps it (as an interrupted reply) and offers Continue.
 *
 * Stop aborts the loop's signal: the stream stops, running MCP calls are cancelled, an open approval
 * question goes away; what arrived is kept (core/agent rule 1).
 */
import { runAgentLoop } from "../../core/agent/agent-loop";
import { groveToolOf } from "../../core/agent/grove-tools";
import type { FunctionToolSpec, ServerToolSpec, ToolSpec } from "../../core/agent/tool-spec";
import type { AgentEvent, AgentLoopConfig, LoopOutcome, ToolOutcome } from "../../core/agent/types";
import { type ChatTools, NO_CHAT_TOOLS, toolKey } from "../../core/session/chat-tools";
import type { Entry, MessageEntry, Session, ToolCallBlock } from "../../core/session/entries";
import { type EntryId, newEntryId, type SessionId } from "../../core/session/ids";
import { appendEntries } from "../../db/entries";
import { deleteCheckpoint, saveCheckpoint } from "../../db/reply-checkpoints";
import type { ReplyCheckpoint } from "../../db/rows";
import { getSession } from "../../db/sessions";
import { stream as providerStream } from "../../providers/registry";
import { providerConnectsMcp } from "../../providers/tool-support";
import type { AssistantPartial, StreamEvent, StreamFn } from "../../providers/types";
import { pageOwnerId } from "../app/owner";
import { pushNotice } from "../app/ui-store";
import { attachmentDataFor } from "../composer/attachments";
import { buildCounted, requestOptions } from "../context/context-builds";
import { type ChatTarget, requestParams } from "../models/chat-target";
import { checkpointPace } from "../reply/checkpoint-pace";
import { createFrameBatcher } from "../reply/frame-batcher";
import { controllers, setReply, takePendingController } from "../reply/reply-lane";
import { useStreamStore } from "../reply/stream-store";
import { STORAGE_FULL_TEXT, saveReply } from "../reply/unsaved";
import { rememberPath } from "../send/known-paths";
import { useSettingsStore } from "../settings/settings-store";
import type { McpServerSetting } from "../settings/tool-settings";
import { answerToApproval } from "./approval";
import { providerToolsFor } from "./chat-tools";
import { runGroveTool } from "./grove-tools";
import { setLoopEnd } from "./loop-store";
import { mcpConnection } from "./mcp-servers";
import { useMcpStore } from "./mcp-store";
import { groveToolSpecs } from "./tool-definitions";

// The loop's produced files are fetched by its caller after the loop (triggers.ts), from this chunk:
// a dynamic import of their own would add its chunk list to the first screen.
export { downloadTurnFiles } from "./code-files";

export type ToolReplyDeps = { stream: StreamFn; now: () => number };
const defaultDeps: ToolReplyDeps = { stream: providerStream, now: () => Date.now() };

/** The loop's compaction hooks, bound by the maintenance triggers. */
export type LoopMaintenance = Pick<AgentLoopConfig, "beforeStep" | "onOverflow">;

export type ToolReplyResult = { outcome: LoopOutcome; path: readonly Entry[]; last: MessageEntry | null };

type Route = { server: McpServerSetting; tool: string };

/** The tools the chat offers now: function tools for the servers this browser reached, provider tools. */
async function chatToolset(
  session: Session,
  target: ChatTarget,
): Promise<{ tools: ToolSpec[]; routes: Map<string, Route> }> {
  const settings = useSettingsStore.getState().settings;
  const choice: ChatTools = session.tools ?? NO_CHAT_TOOLS;
  const { mcpToolSpecs } = await import("../../tools/mcp-tool-specs");
  const reached: {
    id: string;
    name: string;
    tools: NonNullable<Awaited<ReturnType<typeof mcpConnection>>>["tools"];
  }[] = [];
  const byProvider: ServerToolSpec[] = [];
  for (const id of choice.servers) {
    const server = settings.mcpServers.find((s) => s.id === id);
    if (!server) continue;
    if (server.providerConnects) {
      if (!providerConnectsMcp(target.api)) {
        pushNotice(
          "error",
          `${server.name} is not offered: ${target.provider.name} cannot connect to MCP servers itself.`,
        );
        continue;
      }
      const auth = server.headers.Authorization ?? server.headers.authorization;
      byProvider.push({
        kind: "mcp",
        name: server.name,
        url: server.url,
        ...(auth ? { authorizationToken: auth.replace(/^Bearer\s+/i, "") } : {}),
      });
      continue;
    }
    const connection = await mcpConnection(id);
    if (!connection) {
      const status = useMcpStore.getState().status[id];
      const why = status?.kind === "failed" ? status.failure.message : "it is not connected.";
      pushNotice("error", `${server.name}'s tools are not offered this time: ${why}`);
      continue;
    }
    reached.push({ id, name: server.name, tools: connection.tools });
  }
  const { specs, routes: named } = mcpToolSpecs(reached);
  const routes = new Map<string, Route>();
  for (const [name, route] of named) {
    const server = settings.mcpServers.find((s) => s.id === route.serverId);
    if (server) routes.set(name, { server, tool: route.tool });
  }
  const offered = providerToolsFor(session, settings);
  const providerTools: ServerToolSpec[] = choice.provider.filter((k) => offered.includes(k)).map((kind) => ({ kind }));
  const functions: FunctionToolSpec[] = [...specs, ...groveToolSpecs(choice)];
  return { tools: [...functions, ...providerTools, ...byProvider], routes };
}

const copyPartial = (p: AssistantPartial): AssistantPartial => ({
  ...p,
  content: p.content.map((b) => ({ ...b })),
  usage: p.usage ? { ...p.usage } : undefined,
});

const emptyPartial = (target: ChatTarget): AssistantPartial => ({
  content: [],
  providerId: target.provider.id,
  api: target.api,
  model: target.modelId,
});

/**
 * Runs the tool loop from `read.path` (ending in the user's turn, or in tool results: Continue).
 * Null when a reply already runs in this chat, or Stop came before anything was sent.
 */
export async function runToolReply(
  sessionId: SessionId,
  read: { session: Session; path: readonly Entry[] },
  target: ChatTarget,
  deps: ToolReplyDeps = defaultDeps,
  /** Compaction between steps and on overflow (maintenance/triggers.ts binds them). */
  maintenance: LoopMaintenance = {},
): Promise<ToolReplyResult | null> {
  if (controllers.has(sessionId)) return null;
  const controller = takePendingController(sessionId) ?? new AbortController();
  controllers.set(sessionId, controller);
  const signal = controller.signal;
  const settings = useSettingsStore.getState().settings;
  const tail = read.path.at(-1);
  if (!tail) return null;
  setLoopEnd(sessionId, null);

  let checkpointId: EntryId = useStreamStore.getState().replies[sessionId]?.checkpointId ?? newEntryId();
  let parentId: EntryId = tail.id;
  let partial = emptyPartial(target);
  let checkpoints: ReturnType<typeof checkpointPace> | undefined;
  /** The step's reply was refused by the storage and is kept on screen (unsaved.ts) until it is written. */
  let unsaved = false;
  const startedAt = deps.now();
  const publish = createFrameBatcher<AssistantPartial>((p) => setReply(sessionId, (r) => ({ ...r, partial: p })));
  const show = (activity?: string) =>
    useStreamStore.setState((s) => ({
      replies: {
        ...s.replies,
        [sessionId]: {
          sessionId,
          checkpointId,
          parentId,
          partial,
          retry: null,
          phase: "streaming",
          saveError: null,
          ...(activity ? { activity } : {}),
        },
      },
    }));
  const checkpointRow = (): ReplyCheckpoint => ({
    id: checkpointId,
    sessionId,
    parentId,
    ownerId: pageOwnerId(),
    content: partial.content,
    provider: target.provider.id,
    api: target.api,
    model: target.modelId,
    usage: partial.usage,
    startedAt,
    updatedAt: deps.now(),
  });

  try {
    if (signal.aborted) return null;
    show("Connecting to the chat's tools…");
    const { tools, routes } = await chatToolset(read.session, target);
    if (signal.aborted) return null;
    show();
    checkpoints = checkpointPace(() => saveCheckpoint(checkpointRow()));

    /** The call's Grove tool, when it names one this chat switched on. */
    const groveTool = (call: ToolCallBlock) => {
      const kind = groveToolOf(call.name);
      return kind && read.session.tools?.grove?.includes(kind) ? kind : null;
    };
    const config: AgentLoopConfig = {
      maxSteps: settings.toolLoop.maxSteps,
      buildContext: (path) => buildCounted(path, { ...requestOptions(target), nativeTools: true }),
      appendStep: async (checkpoint, path) => {
        const last = path.at(-1);
        if (!last) throw new Error("A tool step needs a path to follow.");
        const isReply = checkpoint.role === "assistant";
        const entry: MessageEntry = {
          ...checkpoint,
          id: isReply ? checkpointId : newEntryId(),
          sessionId,
          parentId: last.id,
          createdAt: deps.now(),
        };
        const leaf = { kind: "move-if-leaf-is", expected: last.id, to: entry.id } as const;
        if (isReply) {
          // A step the storage refuses (disk full) stays on screen as "Not saved", like a plain reply's,
          // and is written when there is room; the loop ends there (its next step would hang on nothing).
          if ((await saveReply(entry, checkpointRow)) === "kept") {
            unsaved = true;
            throw new Error(STORAGE_FULL_TEXT);
          }
        } else await appendEntries(sessionId, [entry], leaf);
        const next = [...path, entry];
        rememberPath(next);
        // The next step (or tool result) follows this entry; the lane shows nothing of it until it streams.
        parentId = entry.id;
        if (isReply) {
          publish.flush();
          checkpointId = newEntryId();
          partial = emptyPartial(target);
          checkpoints?.reset();
          show(entry.content.some((b) => b.type === "tool_call") ? "Running tools…" : undefined);
        }
        return next;
      },
      approve: async (call, s) => {
        // Grove's own tools only read this browser's chats, and the user switched them on: no question.
        if (groveTool(call)) return "allow";
        const route = routes.get(call.name);
        // Not one of the chat's tools (a made-up name): nothing runs; executeTool answers with an error.
        if (!route) return "allow";
        const key = toolKey(route.server.id, route.tool);
        const fresh = await getSession(sessionId);
        const allowed =
          useSettingsStore.getState().settings.toolLoop.alwaysAllow.includes(key) ||
          (fresh?.tools?.allowed ?? []).includes(key);
        if (allowed) return "allow";
        show(`Waiting for your answer: run ${route.tool}?`);
        const decision = await answerToApproval(sessionId, route.server, route.tool, call.args, s);
        show("Running tools…");
        return decision;
      },
      executeTool: (call, s) => {
        const grove = groveTool(call);
        if (grove) return runGroveTool(grove, call, sessionId);
        return executeTool(call, s, routes.get(call.name));
      },
      ...compactionHooks(maintenance, {
        waiting: () => show(),
        before: () => show("Compacting the context…"),
        after: (path) => {
          // The next step follows the compaction (the checkpoint of a reload, too).
          const last = path.at(-1);
          if (last) parentId = last.id;
          show();
        },
      }),
    };

    const streamFn = (context: Parameters<StreamFn>[0]["context"], s: AbortSignal): AsyncIterable<StreamEvent> =>
      (async function* () {
        const attachments = await attachmentDataFor(context, target);
        yield* deps.stream({
          provider: target.provider,
          model: target.modelId,
          context,
          ...requestParams(target, settings),
          signal: s,
          ...(tools.length > 0 ? { tools } : {}),
          ...(attachments ? { attachments } : {}),
        });
      })();

    const emit = (event: AgentEvent<StreamEvent>) => {
      if (event.type === "step_start") {
        show();
        void saveCheckpoint(checkpointRow()).catch(() => {});
      } else if (event.type === "stream") {
        partial = copyPartial(event.event.partial);
        checkpoints?.changed();
        publish.push(partial);
      }
    };

    const result = await runAgentLoop(read.path, config, emit, signal, streamFn);
    const last = [...result.path].reverse().find((e): e is MessageEntry => e.type === "message") ?? null;
    if (result.outcome.kind === "limit") setLoopEnd(sessionId, { kind: "limit", steps: result.outcome.steps });
    else if (result.outcome.kind === "stopped") setLoopEnd(sessionId, { kind: "stopped" });
    else if (result.outcome.kind === "paused") setLoopEnd(sessionId, { kind: "compacted" });
    else if (result.outcome.kind === "error" && last?.status !== "error" && !unsaved)
      pushNotice("error", result.outcome.error.message);
    return { outcome: result.outcome, path: result.path, last };
  } finally {
    checkpoints?.stop();
    publish.flush();
    controllers.delete(sessionId);
    // An unsaved step keeps its lane ("Not saved", Save now) and its checkpoint until unsaved.ts writes it.
    if (!unsaved) {
      // A step that never ended (an exception) leaves no checkpoint behind to be recovered as "interrupted".
      void deleteCheckpoint(checkpointId).catch(() => {});
      setReply(sessionId, () => null);
    }
  }
}

/** The maintenance hooks, with the lane told while they run and where the next step hangs after. */
function compactionHooks(
  hooks: LoopMaintenance,
  lane: { waiting(): void; before(): void; after(path: readonly Entry[]): void },
): LoopMaintenance {
  const { beforeStep, onOverflow } = hooks;
  return {
    ...(beforeStep && {
      beforeStep: async (path, signal) => {
        // Between steps the lane waits (a compaction shows its own bar), not "Running tools…".
        lane.waiting();
        const gate = await beforeStep(path, signal);
        if (gate.path !== path) lane.after(gate.path);
        return gate;
      },
    }),
    ...(onOverflow && {
      onOverflow: async (path, signal) => {
        lane.before();
        const next = await onOverflow(path, signal);
        lane.after(next ?? path);
        return next;
      },
    }),
  };
}

async function executeTool(call: ToolCallBlock, signal: AbortSignal, route: Route | undefined): Promise<ToolOutcome> {
  if (!route) return { text: `There is no tool named "${call.name}" in this chat.`, isError: true };
  const connection = await mcpConnection(route.server.id);
  if (!connection) {
    const status = useMcpStore.getState().status[route.server.id];
    const why = status?.kind === "failed" ? status.failure.message : "it is not connected.";
    return { text: `The server ${route.server.name} could not be reached: ${why}`, isError: true };
  }
  const timeoutMs = useSettingsStore.getState().settings.toolLoop.callTimeoutSeconds * 1000;
  const outcome = await connection.callTool(route.tool, call.args, { signal, timeoutMs });
  if (signal.aborted) throw new Error("stopped");
  const { callOutcomeText } = await import("../../tools/mcp-result");
  return callOutcomeText(outcome);
}
