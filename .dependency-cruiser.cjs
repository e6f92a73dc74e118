/**
 * DESIGN §1: dependencies point one way, ui -> state -> (db, worker client, providers) -> core.
 * The worker kit (src/worker-kit: starting a worker, its death, the in-process fallback) sits
 * between: worker/ and db/ start their workers with it, and it imports only core/ (and comlink).
 * Each rule below is one arrow that must not exist.
 */

/**
 * Test support: code that only tests run (fakes, fixtures, harnesses). The convention: a helper lives
 * in the `testing/` folder of its layer (src/core/testing, src/db/testing, ...), or, for a one-off beside
 * the code it fakes, is named `*.testkit.ts(x)`.
 */
const TEST_SUPPORT = String.raw`\.testkit\.tsx?$|/testing/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-test-support-in-production",
      comment:
        "production code never imports test helpers (testing/ folders, *.testkit.ts); tests and other helpers may",
      severity: "error",
      from: { path: "^src/", pathNot: String.raw`\.test\.tsx?$|` + TEST_SUPPORT },
      to: { path: TEST_SUPPORT },
    },
    {
      name: "core-is-pure",
      comment: "core/ imports nothing from the app (no React, DOM stores, Dexie or providers)",
      severity: "error",
      from: { path: "^src/core/" },
      to: {
        path: "^src/(ui|state|db|worker|worker-kit|providers|tools)/|node_modules/(dexie|dexie-react-hooks|react|react-dom|zustand|comlink|@modelcontextprotocol)/",
      },
    },
    {
      name: "providers-below-state",
      severity: "error",
      from: { path: "^src/providers/" },
      to: { path: "^src/(ui|state|db|worker|worker-kit)/|node_modules/(dexie|react|zustand)/" },
    },
    {
      name: "worker-kit-imports-only-core",
      comment: "the worker kit is shared plumbing for worker/ and db/: it knows no app layer but core/",
      severity: "error",
      from: { path: "^src/worker-kit/" },
      to: { path: "^src/(ui|state|db|worker|providers|tools)/|node_modules/(dexie|react|react-dom|zustand)/" },
    },
    {
      name: "tools-below-state",
      comment:
        "tools/ (the MCP client) talks to MCP servers with the SDK and uses core/ only: no stores, no Dexie, no workers, no provider adapters",
      severity: "error",
      from: { path: "^src/tools/" },
      to: {
        path: "^src/(ui|state|db|worker|worker-kit|providers)/|node_modules/(dexie|dexie-react-hooks|react|react-dom|zustand|comlink)/",
      },
    },
    {
      name: "only-state-uses-tools",
      comment:
        "the MCP client is an edge like providers/: state/ orchestrates it; core/, db/, worker/ and providers/ never import it",
      severity: "error",
      from: { path: "^src/(core|db|worker|worker-kit|providers)/" },
      to: { path: "^src/tools/" },
    },
    {
      name: "db-below-state",
      severity: "error",
      from: { path: "^src/db/" },
      to: { path: "^src/(ui|state|worker|providers)/" },
    },
    {
      name: "worker-below-state",
      severity: "error",
      from: { path: "^src/worker/" },
      to: { path: "^src/(ui|state|db)/" },
    },
    {
      name: "state-below-ui",
      severity: "error",
      from: { path: "^src/state/" },
      to: { path: "^src/ui/|node_modules/react-dom/" },
    },
    {
      name: "ui-reads-db-only-through-live",
      comment:
        "ui may use db/live.ts queriers; writes and the Dexie schema stay behind state/. Naming a db type (a row, a search result, an import's progress) reads nothing: type-only imports may come from their source",
      severity: "error",
      from: { path: "^src/ui/" },
      to: { path: "^src/db/", pathNot: "^src/db/live\\.ts$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "dexie-only-in-db",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/db/" },
      to: { path: "node_modules/dexie/" },
    },
    {
      name: "only-the-runner-takes-the-maintenance-lock",
      comment:
        "DESIGN §4.7: one lock, taken and released by the maintenance runner only (state/maintenance/runner.ts, holdAhead included)",
      severity: "error",
      from: { path: "^src/", pathNot: String.raw`^src/state/maintenance/runner\.ts$` },
      to: { path: String.raw`^src/state/maintenance/lock\.ts$` },
    },
    {
      name: "state-builds-contexts-through-one-door",
      comment:
        "state/ builds a context only through state/context/context-builds.ts (counted: one send builds its context once)",
      severity: "error",
      from: { path: "^src/state/", pathNot: String.raw`^src/state/context/context-builds\.ts$` },
      // Its types may be named anywhere: only a call builds.
      to: { path: String.raw`^src/core/session/build-context\.ts$`, dependencyTypesNot: ["type-only"] },
    },
    {
      name: "no-circular",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "\\.test\\.tsx?$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
