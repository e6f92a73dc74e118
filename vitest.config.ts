import { defineConfig } from "vitest/config";

// Node is the default environment: core/, providers/ and db/ (fake-indexeddb) run there.
// UI tests that need a DOM opt in with `// @vitest-environment jsdom` at the top of the file.
// The JSON report feeds .ci/run's "N passed, N failed" line.
export default defineConfig({
  test: {
    include: [
      "src/**/*.test.ts",
      "src/**/*.test.tsx",
      "e2e/mock-server/**/*.test.ts",
      "scripts/**/*.test.ts",
      "bench/**/*.test.ts",
    ],
    environment: "node",
    pool: "threads",
    // Tests wait on state; a timeout only catches a hang. Loading the o200k table or a fake-indexeddb
    // database takes seconds on a loaded 2-core machine, which the default 5 s does not allow.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Every zustand store is reset after each test (state/app/store-registry.ts); Testing Library
    // waits on state up to 20 s (ui/testing/wait-on-state.ts).
    setupFiles: ["src/state/testing/reset-stores.ts", "src/ui/testing/wait-on-state.ts"],
    reporters: ["default", ["json", { outputFile: "test-results/unit-results.json" }]],
  },
});
