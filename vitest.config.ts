import { defineConfig } from "vitest/config";

// Node is the default environment: core/, providers/ and db/ (fake-indexeddb) run there.
// UI tests that need a DOM opt in with `// @vitest-environment jsdom` at the top of the file.
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx", "e2e/mock-server/**/*.test.ts"],
    environment: "node",
    pool: "threads",
  },
});
