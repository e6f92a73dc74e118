// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { lazy } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CHUNK_LOAD_FAILED, loadChunk } from "../../state/app/chunk-load";
import { resetStores } from "../../state/app/store-registry";
import { useUiStore } from "../../state/app/ui-store";
import { LazyPart } from "./LazyPart";

afterEach(() => {
  cleanup();
  resetStores();
});

describe("a part whose code cannot be fetched", () => {
  it("says so in its place, with Reload, and the rest of the screen stays", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {}); // React reports the caught error
    const Missing = lazy(() => Promise.reject(new TypeError("Failed to fetch dynamically imported module")));
    render(
      <main>
        <h1>Chat</h1>
        <LazyPart>
          <Missing />
        </LazyPart>
      </main>,
    );
    expect((await screen.findByRole("alert")).textContent).toContain(CHUNK_LOAD_FAILED);
    expect(screen.getByRole("button", { name: "Reload" })).toBeDefined();
    expect(screen.getByRole("heading", { name: "Chat" })).toBeDefined();
  });

  it("an action's code: the notice is said and the caller still gets the failure", async () => {
    const failure = new TypeError("Failed to fetch dynamically imported module");
    await expect(loadChunk(() => Promise.reject(failure))).rejects.toBe(failure);
    expect(useUiStore.getState().notices.map((n) => n.text)).toEqual([CHUNK_LOAD_FAILED]);
    await expect(loadChunk(async () => 42)).resolves.toBe(42);
    expect(useUiStore.getState().notices).toHaveLength(1);
  });
});
