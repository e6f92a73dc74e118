/**
 * The action code the first screen calls but does not need to paint (send and reply, compaction,
 * handoff, switching branches, the branch verbs, importing a file) as chunks fetched on demand, so the entry
 * chunk stays small. UI modules import these stand-ins instead of the real modules: same names,
 * same arguments, the result as a promise. `preloadActions` fetches the chunks once the first
 * screen is shown and idle (and the composer asks again on focus), so an Enter or a click rarely waits for a
 * fetch; once loaded, a call costs one microtask.
 *
 * Type-only imports of the real modules keep the signatures in one place.
 */

import { loadChunk } from "./chunk-load";
import { whenFirstScreenIdle } from "./first-screen";
import { nextTask } from "./next-task";

/** Any function: `never[]` parameters accept every parameter list, with no `any`. */
type Fn = (...args: never[]) => unknown;

/**
 * A stand-in for the function `load` brings: same parameters, its result awaited. Each loader is
 * written `import(…).then((m) => m.name)`, naming what it takes, so the unused-export check (knip,
 * `npm run deps`) sees which exports of an action module are used (a module object passed around
 * whole would count every export used).
 */
function lazily<F extends Fn>(load: () => Promise<F>) {
  const call = async (...args: Parameters<F>): Promise<Awaited<ReturnType<F>>> => {
    const f = await loadChunk(load);
    return (await f(...args)) as Awaited<ReturnType<F>>;
  };
  return Object.assign(call, { load });
}

export const sendQueuedMessage = lazily(() => import("../send/send").then((m) => m.sendQueuedMessage));
// Edit, Regenerate and Continue are imported from send/send.ts itself (it is in the entry chunk): they
// show their result in the frame after the click, which a stand-in's await would put off.
export const branchFromHere = lazily(() => import("../send/branch-navigation").then((m) => m.branchFromHere));
export const returnToLatest = lazily(() => import("../send/branch-navigation").then((m) => m.returnToLatest));
export const showVersion = lazily(() => import("../send/branch-navigation").then((m) => m.showVersion));
export const attachmentProblemAt = lazily(() => import("../send/send").then((m) => m.attachmentProblemAt));

export const saveUnsaved = lazily(() => import("../reply/unsaved").then((m) => m.saveUnsaved));
const preloadProvider = lazily(() => import("../reply/reply").then((m) => m.preloadReplyCode));
/** Loads an api's provider code (through the reply chunk, which holds the registry's loader). */
export const preloadApi = lazily(() => import("../reply/reply").then((m) => m.preloadApi));

export const compactSession = lazily(() => import("../maintenance/compact").then((m) => m.compactSession));
export const cancelMaintenance = lazily(() => import("../maintenance/runner").then((m) => m.cancelMaintenance));

export const startHandoff = lazily(() => import("../maintenance/handoff").then((m) => m.startHandoff));
export const createHandoffSession = lazily(() => import("../maintenance/handoff").then((m) => m.createHandoffSession));

export const previewSwitch = lazily(() => import("../maintenance/switch-branch").then((m) => m.previewSwitch));
export const switchHere = lazily(() => import("../maintenance/switch-branch").then((m) => m.switchHere));
export const returnToBranch = lazily(() => import("../maintenance/switch-branch").then((m) => m.returnToBranch));
export const rememberSwitchChoice = lazily(() =>
  import("../maintenance/switch-branch").then((m) => m.rememberSwitchChoice),
);

export const importFile = lazily(() => import("../transfer/import").then((m) => m.importFile));

let preloadStarted = false;
/**
 * Fetches the action chunks ahead of their first use (once), one per task: each is evaluated when
 * it arrives, and arriving together they made one long task. A chunk is fetched through one of the
 * stand-ins it serves.
 */
export function preloadActions(): void {
  if (preloadStarted) return;
  preloadStarted = true;
  void (async () => {
    for (const { load } of [sendQueuedMessage, branchFromHere, preloadProvider, compactSession, switchHere]) {
      await load().catch(() => {});
      await nextTask();
    }
  })();
}

/**
 * The composer's focus: the send and reply chunks, then the provider code for the chat's model,
 * started in a task of their own. A chat that opens focuses its composer inside the task that draws
 * it, and starting the fetches is not free (Vite's loader adds a modulepreload link per dependency
 * of each chunk: tens of ms in a fresh tab).
 */
export function preloadReplyCode(...args: Parameters<typeof preloadProvider>): void {
  // In a fresh tab, not before the first screen is shown and idle (first-screen.ts): the chat
  // that opens focuses its composer, and these chunks were part of the cold start's download.
  whenFirstScreenIdle(() =>
    setTimeout(() => {
      preloadActions();
      void preloadProvider(...args).catch(() => {});
    }, 0),
  );
}
