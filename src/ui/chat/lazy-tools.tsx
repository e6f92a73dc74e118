import { type ComponentProps, lazy } from "react";
import type { Entry } from "../../core/session/entries";
import type { SessionId } from "../../core/session/ids";
import { useApprovalStore } from "../../state/tools/approval-store";
import { LazyPart } from "../common/LazyPart";
import type {
  ToolCallStep as CallStepImpl,
  Citations as CitationsImpl,
  ServerToolStep as ServerStepImpl,
} from "./ToolSteps";
import { ToolsButtonFace } from "./ToolsButtonFace";
import type { ToolsMenu as ToolsMenuImpl } from "./ToolsMenu";

/**
 * The tools' parts of the chat screen (issue 28) as chunks of their own, so a chat without tools
 * pays nothing for them on its first screen: the composer's Tools menu, the approval dialog (loaded
 * when a call waits for an answer), a message's tool steps and citations (loaded with the first
 * message that has one), and the "Continue" offer under a loop that stopped (loaded when a path ends
 * inside one). Same names and props as the components they stand for.
 */
const loadToolsMenu = () => import("./ToolsMenu");
const loadToolSteps = () => import("./ToolSteps");

const Menu = lazy(() => loadToolsMenu().then((m) => ({ default: m.ToolsMenu })));
const Approval = lazy(() => import("./ApprovalDialog").then((m) => ({ default: m.ApprovalDialog })));
const CallStep = lazy(() => loadToolSteps().then((m) => ({ default: m.ToolCallStep })));
const ServerStep = lazy(() => loadToolSteps().then((m) => ({ default: m.ServerToolStep })));
const CitationList = lazy(() => loadToolSteps().then((m) => ({ default: m.Citations })));
const LoopContinue = lazy(() => import("./ToolLoopContinue").then((m) => ({ default: m.ToolLoopContinue })));

export function ToolsMenu(props: ComponentProps<typeof ToolsMenuImpl>) {
  return (
    <LazyPart standIn={<ToolsButtonStandIn />}>
      <Menu {...props} />
    </LazyPart>
  );
}

/**
 * The Tools button's box while its code arrives (a second into a cold open): the message box beside
 * it kept moving aside when the button came. Inert and hidden from assistive tech: the button
 * itself, named "Tools", replaces it.
 */
function ToolsButtonStandIn() {
  return (
    <div className="menu-anchor" aria-hidden="true">
      <button type="button" className="tools-button tools-button-stand-in" tabIndex={-1} disabled>
        <ToolsButtonFace />
      </button>
    </div>
  );
}

export function ApprovalDialog() {
  const waiting = useApprovalStore((s) => s.queue.length > 0);
  if (!waiting) return null;
  return (
    <LazyPart>
      <Approval />
    </LazyPart>
  );
}

export function ToolCallStep(props: ComponentProps<typeof CallStepImpl>) {
  return (
    <LazyPart>
      <CallStep {...props} />
    </LazyPart>
  );
}

export function ServerToolStep(props: ComponentProps<typeof ServerStepImpl>) {
  return (
    <LazyPart>
      <ServerStep {...props} />
    </LazyPart>
  );
}

export function Citations(props: ComponentProps<typeof CitationsImpl>) {
  return (
    <LazyPart>
      <CitationList {...props} />
    </LazyPart>
  );
}

/**
 * Whether the path ends inside a tool loop the model has not answered yet: in tool results (the step
 * limit, Stop, a reload between steps), or in a reply whose calls got no result (a reload while asking);
 * either one under a compaction made between two steps.
 */
function endsMidLoop(path: readonly Entry[]): boolean {
  // A compaction between two steps (auto-continue off) ends the path where the loop was.
  const end = path.at(-1);
  const last = end?.type === "compaction" ? path.at(-2) : end;
  if (last?.type !== "message") return false;
  if (last.role === "tool") return true;
  return last.role === "assistant" && last.content.some((b) => b.type === "tool_call");
}

/** The offer under a tool loop that stopped before the answer (issue 28), for a path that ends in one. */
export function ToolLoopContinue({ sessionId, path }: { sessionId: SessionId; path: readonly Entry[] }) {
  if (!endsMidLoop(path)) return null;
  return (
    <LazyPart>
      <LoopContinue sessionId={sessionId} />
    </LazyPart>
  );
}
