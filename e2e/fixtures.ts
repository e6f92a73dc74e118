/**
 * The Playwright `test` every spec imports: one mock provider server per worker (a free port,
 * started once, closed when the worker ends) and `mock.reset()` before each test, so scripts, recorded
 * requests and config never leak from one test into the next.
 *
 * @example
 * import { expect, test } from "./fixtures";
 *
 * test("shows the reply", async ({ page, mock }) => {
 *   mock.enqueue("anthropic", { text: "Hello from the mock" });
 *   // ...point the app's Anthropic base URL at mock.anthropicBaseUrl, send a message...
 *   await expect(page.getByText("Hello from the mock")).toBeVisible();
 *   expect(mock.requests({ api: "anthropic" })).toHaveLength(1);
 * });
 */
import { test as base } from "@playwright/test";
import { type MockServer, startMockServer } from "./mock-server/index";

type TestFixtures = {
  /** Runs before every test (auto): resets the worker's mock. */
  resetMock: undefined;
};

type WorkerFixtures = {
  /** This worker's mock provider server (see e2e/mock-server/README.md). */
  mock: MockServer;
};

export const test = base.extend<TestFixtures, WorkerFixtures>({
  mock: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this destructuring.
    async ({}, use) => {
      const server = await startMockServer();
      await use(server);
      await server.close();
    },
    { scope: "worker" },
  ],
  resetMock: [
    async ({ mock }, use) => {
      mock.reset();
      await use(undefined);
    },
    { auto: true },
  ],
});

export { expect } from "@playwright/test";
export type { MockServer, RecordedRequest, ReplyScript } from "./mock-server/index";
