/**
 * In-page instrumentation for "open a session until its leaf is rendered" (bench code only; the
 * app is not modified). Two parts, installed before the action:
 *
 * - `installIdbProbe` (an init script): wraps IDBIndex/IDBObjectStore `getAll` so every IndexedDB
 *   read the app issues is logged with its start and end. This splits an open into "before the
 *   entries read", "the read" and "after the read (render)", and tells whether an open read
 *   IndexedDB at all (Dexie's liveQuery cache can answer a re-open from memory).
 * - `installOpenProbe`: a MutationObserver noting when the leaf `article` enters the DOM.
 *
 * Times are `performance.now()` values reported relative to the start: navigation start (0) for a
 * page load, the click event's timestamp for a click. Fields of `readOpenProbe`:
 * leaf (leaf article in the DOM), firstArticle (page loads only), painted (first frame after the
 * leaf: a task posted from the next requestAnimationFrame), settled (last DOM mutation under
 * `.message-scroll` before `quietMs` of quiet, counted only once nothing matches `pendingSelector`
 * when one is given; null if not quiet within 5 s), readStart/readEnd/
 * readRows (the app's `entries` read via the `sessionId` or `[sessionId+id]` index; null when it
 * did not read),
 * articlesAtLeaf/articlesSettled, leafVisible (inside the scroller's box when settled).
 */

/** Runs in the page (init script). Must stay self-contained: it is serialized. */
export function installIdbProbe() {
  const log = [];
  window.__groveIdb = log;
  const wrap = (proto, method) => {
    const original = proto[method];
    proto[method] = function (...args) {
      const t0 = performance.now();
      const request = original.apply(this, args);
      const isIndex = this instanceof IDBIndex;
      const row = { store: isIndex ? this.objectStore.name : this.name, index: isIndex ? this.name : null, method };
      request.addEventListener("success", () => {
        // Read `result` first: Chromium materializes (deserializes) the rows on first access, and the
        // raw-read figure includes that too.
        const n = Array.isArray(request.result) ? request.result.length : null;
        log.push({ ...row, t0, t1: performance.now(), n });
      });
      return request;
    };
  };
  wrap(IDBIndex.prototype, "getAll");
  wrap(IDBObjectStore.prototype, "getAll");
}

/**
 * Runs in the page. Must stay self-contained: it is serialized. Grove's defaults; another app (the
 * peer bench) names its own: `leafText` (the leaf is then the last element matching `leafSelector`,
 * once its text includes this), `scrollerSelector` (where mutations count against the quiet) and
 * `maxSettleMs`.
 */
export function installOpenProbe({
  leafSelector,
  mode,
  quietMs,
  pendingSelector = null,
  leafText = null,
  scrollerSelector = ".message-scroll",
  maxSettleMs = 5000,
}) {
  const state = {
    mode,
    start: mode === "navigation" ? 0 : null,
    firstArticle: null,
    leaf: null,
    painted: null,
    settled: null,
    lastMutation: null,
    articlesAtLeaf: null,
    articlesSettled: null,
    leafVisible: null,
    done: false,
  };
  window.__groveOpen = state;
  const ready = () => mode === "navigation" || state.start !== null;

  if (mode === "click") {
    document.addEventListener(
      "click",
      (e) => {
        state.start ??= e.timeStamp;
      },
      { capture: true, once: true },
    );
  }

  const leafElement = () => {
    if (leafText === null) return document.querySelector(leafSelector);
    const all = document.querySelectorAll(leafSelector);
    const last = all[all.length - 1];
    return last?.textContent?.includes(leafText) ? last : null;
  };

  const finish = () => {
    const scroller = document.querySelector(scrollerSelector);
    const leaf = leafElement();
    state.articlesSettled = scroller ? scroller.querySelectorAll("article").length : 0;
    if (scroller && leaf) {
      const a = scroller.getBoundingClientRect();
      const b = leaf.getBoundingClientRect();
      state.leafVisible = b.bottom > a.top && b.top < a.bottom;
    } else state.leafVisible = false;
    state.done = true;
    observer.disconnect();
  };

  const observer = new MutationObserver((records) => {
    if (!ready()) return;
    const now = performance.now();
    if (
      state.leaf !== null &&
      records.some((r) => {
        const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
        return el?.closest?.(scrollerSelector);
      })
    ) {
      state.lastMutation = now;
    }
    if (mode === "navigation" && state.firstArticle === null && document.querySelector(`${scrollerSelector} article`)) {
      state.firstArticle = now;
    }
    if (state.leaf === null && leafElement()) {
      state.leaf = now;
      state.lastMutation = now;
      state.articlesAtLeaf = document.querySelectorAll(`${scrollerSelector} article`).length;
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => (state.painted = performance.now());
        channel.port2.postMessage(null);
      });
      const check = setInterval(() => {
        const t = performance.now();
        // While `pendingSelector` is in the DOM (the chat is still opening) no quiet counts.
        const open = pendingSelector === null || document.querySelector(pendingSelector) === null;
        const quiet = open && t - state.lastMutation >= quietMs;
        if (quiet || t - state.leaf > maxSettleMs) {
          clearInterval(check);
          state.settled = quiet ? state.lastMutation : null;
          finish();
        }
      }, 25);
    }
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
}

/** Waits for the probe to finish and returns its numbers relative to its start (see the top). */
export async function readOpenProbe(page, timeoutMs = 30_000) {
  await page.waitForFunction(() => window.__groveOpen?.done === true, null, { timeout: timeoutMs, polling: 50 });
  return page.evaluate(() => {
    const s = window.__groveOpen;
    const rel = (t) => (t === null || t === undefined ? null : t - s.start);
    // A session's entries are read through one of these (db/schema.ts; runs in the page, so inline).
    const sessionIndexes = ["sessionId", "[sessionId+id]"];
    const read = (window.__groveIdb ?? []).find(
      (r) => r.store === "entries" && sessionIndexes.includes(r.index) && r.t0 >= s.start - 1 && r.t0 <= s.leaf,
    );
    return {
      leaf: rel(s.leaf),
      firstArticle: rel(s.firstArticle),
      painted: rel(s.painted),
      settled: rel(s.settled),
      readStart: rel(read?.t0),
      readEnd: rel(read?.t1),
      readRows: read?.n ?? null,
      articlesAtLeaf: s.articlesAtLeaf,
      articlesSettled: s.articlesSettled,
      leafVisible: s.leafVisible,
    };
  });
}

/**
 * Runs in the page before the app (init script): records every long task (> 50 ms) since navigation
 * start in `window.__groveLongTasks`, and, from the Long Animation Frames API, every frame's
 * rendering step (style, layout, paint) of 50 ms or more in `window.__groveLongRenders`: the longtask
 * API does not report a task that runs no script, so a slow first layout of a fresh tab would
 * otherwise go unseen. The scripts those frames ran go to `window.__groveLongFrameScripts`, for
 * `longTaskCause`. Must stay self-contained: it is serialized.
 */
export function installLongTasks() {
  const tasks = [];
  const renders = [];
  const scripts = [];
  window.__groveLongTasks = tasks;
  window.__groveLongRenders = renders;
  window.__groveLongFrameScripts = scripts;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) tasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: true });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        for (const x of e.scripts) {
          scripts.push({
            start: x.startTime,
            duration: x.duration,
            kind: x.invokerType,
            file: (x.sourceURL || "").split("/").pop(),
            forcedLayout: x.forcedStyleAndLayoutDuration,
          });
        }
        if (!e.renderStart) continue;
        const duration = e.startTime + e.duration - e.renderStart;
        if (duration >= 50) renders.push({ start: e.renderStart, duration });
      }
    }).observe({ type: "long-animation-frame", buffered: true });
  } catch {
    // A browser without the API: rendering steps are not measured.
  }
}

/** The long rendering steps `installLongTasks` recorded so far: `{ start, duration }` in ms. */
export function readLongRenders(page) {
  return page.evaluate(() => window.__groveLongRenders ?? []);
}

/** The long tasks `installLongTasks` recorded so far: `{ start, duration }` in ms. */
export function readLongTasks(page) {
  return page.evaluate(() => window.__groveLongTasks);
}

/** The scripts of the long frames `installLongTasks` recorded so far (see `longTaskCause`). */
export function readLongFrameScripts(page) {
  return page.evaluate(() => window.__groveLongFrameScripts ?? []);
}

/**
 * What a long task (`{ start, duration }`) spent its time on, from the long frames' scripts
 * (`readLongFrameScripts`): the script that ran longest in it, named by its kind and file (a build
 * chunk without its hash): "evaluating client.js" for a chunk's top level, "user-callback in
 * index.js" for a timer or idle callback. A task that ran no script (the garbage collector, the
 * HTML parser, a layout outside a frame's script) has none: "no script".
 */
export function longTaskCause(task, scripts) {
  const end = task.start + task.duration;
  const inside = scripts.filter((x) => x.start >= task.start - 1 && x.start < end);
  if (inside.length === 0) return "no script";
  const top = inside.reduce((a, b) => (b.duration > a.duration ? b : a));
  const file = top.file.replace(/-[\w-]{8}\.js$/, ".js") || "an inline or browser script";
  const what =
    top.kind === "module-script" || top.kind === "classic-script" ? `evaluating ${file}` : `${top.kind} in ${file}`;
  return top.forcedLayout >= 20 ? `${what} (forced layout)` : what;
}
