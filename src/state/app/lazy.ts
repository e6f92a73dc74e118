/**
 * The action code the first screen calls but does not need to paint (send and reply, compaction,
 * handoff, switching branches, the branch verbs, importing a file) as chunks fetched on demand, so the entry
 * chunk stays small. UI modules import these stand-ins instead of the real modules: same names,
 * same arguments, the result as a promise. `preloadActions` fetches the chunks right after the
 * first screen (and the composer asks again on focus), so an Enter or a click rarely waits for a
 * fetch; once loaded, a call costs one microtask.
 *
 * Type-only imports of the real modules keep the signatures in one place.
 */

import { loadChunk } from "./chunk-load";
import { nextTask } from "./next-task";

/** Any function: `never[]` parameters accept every parameter list, with no `any`. */
type Fn = (...args: never[]) => unknown;

/** A stand-in for `key` of the module `load` brings: same parameters, its result awaited. */
function lazily<M, K extends keyof M>(load: () => Promise<M>, key: K) {
  type F = M[K] extends Fn ? M[K] : never;
  return async (...args: Parameters<F>): Promise<Awaited<ReturnType<F>>> => {
    const m = await loadChunk(load);
    return (m[key] as F)(...args) as Awaited<ReturnType<F>>;
  };
}

const chat = () => import("../send/send");
const navigation = () => import("../send/branch-navigation");
const reply = () => import("../reply/reply");
const unsaved = () => import("../reply/unsaved");
const compact = () => import("../maintenance/compact");
const runner = () => import("../maintenance/runner");
const handoff = () => import("../maintenance/handoff");
const switchBranch = () => import("../maintenance/switch-branch");
const importer = () => import("../transfer/import");

let preloadStarted = false;
/**
 * Fetches the action chunks ahead of their first use (once), one per task: each is evaluated when
 * it arrives, and arriving together they made one long task.
 */
export function preloadActions(): void {
  if (preloadStarted) return;
  preloadStarted = true;
  void (async () => {
    for (const load of [chat, navigation, reply, compact, switchBranch]) {
      await load().catch(() => {});
      await nextTask();
    }
  })();
}

export const sendQueuedMessage = lazily(chat, "sendQueuedMessage");
// Edit, Regenerate and Continue are imported from send/send.ts itself (it is in the entry chunk): they
// show their result in the frame after the click, which a stand-in's await would put off.
export const branchFromHere = lazily(navigation, "branchFromHere");
export const returnToLatest = lazily(navigation, "returnToLatest");
export const showVersion = lazily(navigation, "showVersion");
export const attachmentProblemAt = lazily(chat, "attachmentProblemAt");

export const saveUnsaved = lazily(unsaved, "saveUnsaved");
const preloadProvider = lazily(reply, "preloadReplyCode");
/** Loads an api's provider code (through the reply chunk, which holds the registry's loader). */
export const preloadApi = lazily(reply, "preloadApi");
/**
 * The composer's focus: the send and reply chunks, then the provider code for the chat's model,
 * started in a task of their own. A chat that opens focuses its composer inside the task that draws
 * it, and starting the fetches is not free (Vite's loader adds a modulepreload link per dependency
 * of each chunk: tens of ms in a fresh tab).
 */
export function preloadReplyCode(...args: Parameters<typeof preloadProvider>): void {
  setTimeout(() => {
    preloadActions();
    void preloadProvider(...args).catch(() => {});
  }, 0);
}

export const compactSession = lazily(compact, "compactSession");
export const cancelMaintenance = lazily(runner, "cancelMaintenance");
export const resumeAutoCompaction = lazily(compact, "resumeAutoCompaction");

export const startHandoff = lazily(handoff, "startHandoff");
export const createHandoffSession = lazily(handoff, "createHandoffSession");

export const previewSwitch = lazily(switchBranch, "previewSwitch");
export const switchHere = lazily(switchBranch, "switchHere");
export const returnToBranch = lazily(switchBranch, "returnToBranch");
export const rememberSwitchChoice = lazily(switchBranch, "rememberSwitchChoice");

export const importFile = lazily(importer, "importFile");
