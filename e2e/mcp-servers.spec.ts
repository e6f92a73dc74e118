/**
 * The test MCP servers, seen from a real Chromium page — without the app: a page on another origin (the
 * mock's blank page) initializes an MCP session with each over Streamable HTTP, so Chromium applies real
 * CORS (the preflight for JSON + the MCP headers, the exposed session header). A server that sends no
 * CORS headers is refused by the browser, as a user's server that does not allow the app would be.
 *
 * Runs without the app server: `GROVE_E2E_NO_APP=1 npx playwright test e2e/mcp-servers.spec.ts`.
 */
import { expect, test } from "./fixtures";

test.beforeEach(async ({ page, mock }) => {
  await page.goto(`${mock.url}/__mock/blank`);
});

/** `initialize` from the page: the status, the session header (if the page may read it), or the fetch error. */
function initializeFromPage(url: string, headers: Record<string, string> = {}) {
  return async ({ page }: { page: import("@playwright/test").Page }) =>
    page.evaluate(
      async ({ url, headers }) => {
        try {
          const res = await fetch(url, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              "mcp-protocol-version": "2025-06-18",
              ...headers,
            },
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: 1,
              method: "initialize",
              params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "page", version: "1" } },
            }),
          });
          const body = await res.text();
          return { status: res.status, session: res.headers.get("mcp-session-id"), body, error: null };
        } catch (error) {
          return { status: 0, session: null, body: "", error: String(error) };
        }
      },
      { url, headers },
    );
}

test("server-everything answers a page on another origin and lets it read the session id", async ({ page, mcp }) => {
  const result = await initializeFromPage(mcp.everything.url)({ page });
  expect(result.error).toBeNull();
  expect(result.status).toBe(200);
  expect(result.session).toBeTruthy();
  expect(result.body).toContain("mcp-servers/everything");
});

test("the files server answers the page, asks for its token, and is refused without CORS", async ({ page, mcp }) => {
  const open = await initializeFromPage(mcp.files.url)({ page });
  expect(open.error).toBeNull();
  expect(open.status).toBe(200);
  expect(open.body).toContain("grove-test-files");

  mcp.files.setToken("t0ken");
  expect((await initializeFromPage(mcp.files.url)({ page })).status).toBe(401);
  expect((await initializeFromPage(mcp.files.url, { authorization: "Bearer t0ken" })({ page })).status).toBe(200);

  mcp.files.setAllowedOrigin(null);
  const refused = await initializeFromPage(mcp.files.url)({ page });
  expect(refused.status).toBe(0);
  expect(refused.error).toContain("Failed to fetch");
});
