// Sums the Vitest and Playwright JSON reports into the one line CI reads: "N passed, N failed".
// A step that failed before any test ran (typecheck, lint, dependency rules, build) counts as one failure.
import { existsSync, readFileSync } from "node:fs";

const status = Number(process.argv[2] ?? 0);
let passed = 0;
let failed = 0;
let skipped = 0;

const read = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : null);

const unit = read("test-results/unit-results.json");
if (unit) {
  passed += unit.numPassedTests ?? 0;
  failed += unit.numFailedTests ?? 0;
  skipped += (unit.numPendingTests ?? 0) + (unit.numTodoTests ?? 0);
}

const e2e = read("test-results/e2e-results.json");
if (e2e?.stats) {
  passed += (e2e.stats.expected ?? 0) + (e2e.stats.flaky ?? 0);
  failed += e2e.stats.unexpected ?? 0;
  skipped += e2e.stats.skipped ?? 0;
}

if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
