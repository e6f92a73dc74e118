/**
 * Handoff's public surface (DESIGN §5), for the worker and the state layer: `prepareHandoff`
 * builds the request (the live context + one user message), `finishHandoff` cleans the document
 * (or says it is empty), `newHandoffSession` builds the new session and its first entry.
 * Pure: no I/O anywhere in this folder.
 */
export type { HandoffFinish } from "./finish";
export { finishHandoff } from "./finish";
export type { HandoffOptions, HandoffPlan, HandoffPrepareResult, HandoffRequest } from "./prepare";
export { HANDOFF_MIN_OUTPUT_TOKENS, handoffMessage, prepareHandoff, withHandoffMessage } from "./prepare";
export type { HandoffSessionInput } from "./session";
export { handoffTitle, newHandoffSession } from "./session";
