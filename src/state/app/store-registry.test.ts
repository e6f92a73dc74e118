import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { defineStore, resetStores } from "./store-registry";

const SRC = join(dirname(fileURLToPath(import.meta.url)), "../..");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

describe("the store registry", () => {
  it("puts every store it made back to its first state", () => {
    const useCount = defineStore(() => ({ n: 0, by: {} as Record<string, number> }));
    useCount.setState({ n: 3, by: { a: 1 } });
    resetStores();
    expect(useCount.getState()).toEqual({ n: 0, by: {} });
  });

  it("makes every zustand store of the app, each in its feature's room (so the one reset covers them all)", () => {
    const files = sources(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, "utf8") }));
    const zustandMakers = files.filter((f) => /from "zustand"/.test(f.text)).map((f) => f.path);
    expect(zustandMakers).toEqual(["state/app/store-registry.ts"]);
    const definers = files.filter((f) => /\bdefineStore</.test(f.text)).map((f) => f.path);
    expect(definers.length).toBeGreaterThanOrEqual(12);
    // A room is a folder of state/: no store at the top of state/, none outside state/.
    for (const path of definers) expect(path).toMatch(/^state\/[a-z-]+\/[a-z-]+\.ts$/);
  });
});
