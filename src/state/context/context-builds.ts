/**
 * State's one door to `buildContext` (core/session/build-context.ts): every context the main
 * thread builds for a chat (the request, the preflight's bound, the exact count's request, the
 * attachment check) goes through `buildCounted`, so the builds one send makes are a real count.
 * A send should build its context once (issue 23); bench/send-first-token.mjs reads the count
 * through the test hooks. (The meter's character estimate, in ui/, is not a send's build.)
 */
import { type BuildContextOptions, buildContext } from "../../core/session/build-context";
import type { LlmContext } from "../../core/session/context";
import type { Entry } from "../../core/session/entries";
import type { ChatTarget } from "../models/chat-target";

let builds = 0;

/** One build's cost, for the tools-loop bench: the path's length, whether it was a loop step's, its time. */
export type BuildTime = { entries: number; nativeTools: boolean; ms: number };

/** The latest builds' times kept (a ring: a long day of chatting keeps no more than this). */
const BUILD_TIMES_KEPT = 256;
const buildTimes: BuildTime[] = [];

/** `buildContext`, counted and timed. */
export function buildCounted(path: readonly Entry[], options: BuildContextOptions): LlmContext {
  builds++;
  const t0 = performance.now();
  const context = buildContext(path, options);
  buildTimes.push({ entries: path.length, nativeTools: options.nativeTools === true, ms: performance.now() - t0 });
  if (buildTimes.length > BUILD_TIMES_KEPT) buildTimes.shift();
  return context;
}

/** The latest builds' times, oldest first (bench/tools-loop.mjs reads them through the test hooks). */
export function contextBuildTimes(): BuildTime[] {
  return [...buildTimes];
}

/** Contexts state/ has built on this thread since the page loaded. */
export function contextBuilds(): number {
  return builds;
}

/** How the request to `target` is built: its system prompt, api and provider. */
export function requestOptions(target: ChatTarget): BuildContextOptions {
  return { systemPrompt: target.systemPrompt, targetApi: target.api, targetProviderId: target.provider.id };
}
