/**
 * DESIGN §1: dependencies point one way, ui -> state -> (db, worker client, providers) -> core.
 * Each rule below is one arrow that must not exist.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "core-is-pure",
      comment: "core/ imports nothing from the app (no React, DOM stores, Dexie or providers)",
      severity: "error",
      from: { path: "^src/core/" },
      to: {
        path: "^src/(ui|state|db|worker|providers)/|node_modules/(dexie|dexie-react-hooks|react|react-dom|zustand|comlink)/",
      },
    },
    {
      name: "providers-below-state",
      severity: "error",
      from: { path: "^src/providers/" },
      to: { path: "^src/(ui|state|db|worker)/|node_modules/(dexie|react|zustand)/" },
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
      comment: "ui may use db/live.ts queriers; writes and the Dexie schema stay behind state/",
      severity: "error",
      from: { path: "^src/ui/" },
      to: { path: "^src/db/", pathNot: "^src/db/live\\.ts$" },
    },
    {
      name: "dexie-only-in-db",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/db/" },
      to: { path: "node_modules/dexie/" },
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
