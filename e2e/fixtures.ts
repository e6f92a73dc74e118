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
import { type McpServers, startTestMcpServers } from "./mcp-servers";
import { type MockServer, startMockServer } from "./mock-server/index";

type TestFixtures = {
  /** Runs before every test (auto): resets the worker's mock. */
  resetMock: undefined;
  /**
   * The worker's real MCP servers (e2e/mcp-servers.ts), reset for this test: `mcp.everything.url`,
   * `mcp.files.url` (its folder back to its seed files, no token, CORS for any origin). Started on the
   * first test of the worker that asks for it; specs that do not ask never start them.
   */
  mcp: McpServers;
};

type WorkerFixtures = {
  /** This worker's mock provider server (see e2e/mock-server/README.md). */
  mock: MockServer;
  /** This worker's MCP servers, started once; tests use `mcp` (reset per test). */
  mcpServers: McpServers;
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
  mcpServers: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this destructuring.
    async ({}, use) => {
      const servers = await startTestMcpServers();
      await use(servers);
      await servers.close();
    },
    { scope: "worker" },
  ],
  mcp: async ({ mcpServers }, use) => {
    await mcpServers.files.reset();
    await use(mcpServers);
  },
  resetMock: [
    async ({ mock }, use) => {
      mock.reset();
      await use(undefined);
    },
    { auto: true },
  ],
});

export { expect } from "@playwright/test";
export type { McpServers } from "./mcp-servers";
export type { MockServer, RecordedRequest, ReplyScript } from "./mock-server/index";
