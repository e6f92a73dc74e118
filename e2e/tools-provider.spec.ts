/**
 * Provider-side tools (issue 28 items 1 and 2): a server added with "Let the provider connect" is handed
 * to the provider (Anthropic's MCP connector `mcp_servers` with its token; OpenAI Responses' `mcp` tool)
 * and this browser never connects to it; the mock's recorded requests show both.
 */
import { chatRequests, openConfigured, send, waitIdle } from "./app";
import { expect, type MockServer, test } from "./fixtures";
import { chooseTool, closeSettings } from "./tools-helpers";

/** Settings › Tools: a server the provider connects to, at a path of the mock (so any browser request shows). */
async function addProviderServer(page: import("@playwright/test").Page, mock: MockServer): Promise<string> {
  const url = `${mock.url}/remote-mcp`;
  await page.getByRole("button", { name: "Settings" }).click();
  const tools = page.getByRole("dialog", { name: "Settings" }).getByRole("region", { name: "Tools" });
  await tools.getByLabel("Server URL").fill(url);
  await tools.getByLabel("Headers").fill("Authorization: Bearer provider-side-token");
  await tools.getByRole("checkbox", { name: "Let the provider connect" }).check();
  await tools.getByRole("button", { name: "Add MCP server" }).click();
  const item = page.getByRole("dialog", { name: "Settings" }).getByRole("listitem").filter({ hasText: "local" });
  await expect(item.getByRole("status")).toHaveText("The provider connects to it (not this browser)");
  await closeSettings(page);
  return url;
}

const browserCalls = (mock: MockServer) =>
  mock.requests({ includePreflight: true }).filter((r) => r.path.includes("remote-mcp"));

test("Let the provider connect, Claude: the request names the server in mcp_servers with its token; the browser never calls it", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock);
  const url = await addProviderServer(page, mock);
  await chooseTool(page, "local");
  mock.enqueue("anthropic", {
    serverTools: [{ kind: "mcp", server: "local", name: "lookup", input: { q: "x" }, output: "found it" }],
    text: "The server found it.",
  });
  await send(page, "Ask the remote server");
  await expect(page.getByText("The server found it.")).toBeVisible({ timeout: 15_000 });
  await waitIdle(page);

  const body = chatRequests(mock, "anthropic")[0]?.body as {
    mcp_servers?: { type: string; url: string; name: string; authorization_token?: string }[];
    tools?: { type?: string; mcp_server_name?: string }[];
  };
  expect(body.mcp_servers).toEqual([
    expect.objectContaining({ type: "url", url, name: "local", authorization_token: "provider-side-token" }),
  ]);
  expect(body.tools).toContainEqual(expect.objectContaining({ type: "mcp_toolset", mcp_server_name: "local" }));
  expect(chatRequests(mock, "anthropic")[0]?.headers["anthropic-beta"]).toContain("mcp-client-");
  expect(browserCalls(mock)).toEqual([]);
});

test("Let the provider connect, OpenAI Responses: an mcp tool with the server's URL and token; the browser never calls it", async ({
  page,
  mock,
}) => {
  await openConfigured(page, mock, { model: { provider: "openai", id: "gpt-5" } });
  const url = await addProviderServer(page, mock);
  await chooseTool(page, "local");
  mock.enqueue("openai", {
    serverTools: [{ kind: "mcp", server: "local", name: "lookup", input: { q: "x" }, output: "found it" }],
    text: "Found through OpenAI.",
  });
  await send(page, "Ask the remote server");
  await expect(page.getByText("Found through OpenAI.")).toBeVisible({ timeout: 15_000 });
  await waitIdle(page);

  const body = chatRequests(mock, "openai")[0]?.body as { tools?: Record<string, unknown>[] };
  expect(body.tools).toContainEqual(
    expect.objectContaining({
      type: "mcp",
      server_label: "local",
      server_url: url,
      authorization: "provider-side-token",
      require_approval: "never",
    }),
  );
  expect(browserCalls(mock)).toEqual([]);
});
