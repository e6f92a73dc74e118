/**
 * The built app's security policy, end to end: its responses carry the CSP and Referrer-Policy
 * headers (the worker's script too), providers get no Referer, injected inline script does not run,
 * no image from another origin loads (not even one added to the page by hand), ordinary use raises
 * no CSP violation, and a provider error quoting the key is shown and stored redacted.
 */
import type { Page } from "@playwright/test";
import { assistantMessages, OPENAI_KEY, openConfigured, send, sendAndWait } from "./app";
import { expect, test } from "./fixtures";

/** Collects `securitypolicyviolation` events from the page (installed before any app script runs). */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  return () => page.evaluate(() => [...(window as unknown as { __violations: string[] }).__violations]);
}

test.describe("Content-Security-Policy", () => {
  test("the app, its scripts and its worker are served with the CSP and no-referrer headers", async ({ page }) => {
    const scripts: string[] = [];
    page.on("response", (r) => {
      if (r.request().resourceType() === "script" || /\.worker-[^/]*\.js$/.test(r.url())) scripts.push(r.url());
    });
    const doc = await page.goto("/");
    const headers = doc?.headers() ?? {};
    const csp = headers["content-security-policy"] ?? "";
    expect(csp).toMatch(/(^|; )script-src 'self'(;|$)/);
    expect(csp).toMatch(/(^|; )img-src 'self' data: blob:(;|$)/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(headers["referrer-policy"]).toBe("no-referrer");
    // The same policy as a <meta>, for static hosts that send no headers.
    await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute(
      "content",
      /script-src 'self';/,
    );

    // The compaction worker takes the policy of its own script's response.
    await expect.poll(() => scripts.some((u) => /worker/.test(u))).toBe(true);
    const workerUrl = scripts.find((u) => /worker/.test(u)) ?? "";
    const workerResponse = await page.request.get(workerUrl);
    expect(workerResponse.headers()["content-security-policy"]).toBe(csp);
    // The hosting headers file ships beside the build, with the same policy.
    const hosting = await (await page.request.get("/_headers")).text();
    expect(hosting).toContain(`Content-Security-Policy: ${csp}`);
    expect(hosting).toContain("Referrer-Policy: no-referrer");
  });

  test("inline script injected into the page does not run", async ({ page }) => {
    const violations = await watchViolations(page);
    await page.goto("/");
    await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
    const ran = await page.evaluate(() => {
      const s = document.createElement("script");
      s.textContent = "window.__injected = true";
      document.body.append(s);
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
    await expect.poll(violations).toContainEqual(expect.stringMatching(/^script-src(-elem)? inline$/));
  });

  test("no image from another origin loads: not a model's Markdown image, not an <img> added by hand", async ({
    page,
    mock,
  }) => {
    const violations = await watchViolations(page);
    await openConfigured(page, mock);
    const beacon = `${mock.url}/beacon.png?chat=secret`;
    mock.enqueue("anthropic", { text: `Look: ![pixel](${beacon}) and **bold**.` });
    await sendAndWait(page, "Show me a picture");
    await expect(assistantMessages(page).last()).toContainText("bold");

    // Defence in depth: even markup that slipped past the renderer cannot beacon out.
    const loaded = await page.evaluate(
      (src) =>
        new Promise<boolean>((resolve) => {
          const img = document.createElement("img");
          img.onload = () => resolve(true);
          img.onerror = () => resolve(false);
          img.src = src;
          document.body.append(img);
        }),
      `${beacon}&by=hand`,
    );
    expect(loaded).toBe(false);
    await expect.poll(violations).toContainEqual(expect.stringMatching(/^img-src .*beacon\.png/));
    expect(mock.requests().filter((r) => r.path.includes("beacon"))).toEqual([]);
  });

  test("ordinary use raises no violation, and providers get no Referer", async ({ page, mock }) => {
    const violations = await watchViolations(page);
    await openConfigured(page, mock);
    mock.enqueue("anthropic", { text: "```ts\nconst x = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |" });
    await sendAndWait(page, "Some code please");
    await expect(assistantMessages(page).last().locator("pre code")).toBeVisible();
    await page.getByRole("button", { name: "History graph", exact: true }).click();
    await expect(page.getByRole("region", { name: "History graph" }).getByRole("treeitem").first()).toBeVisible();
    expect(await violations()).toEqual([]);
    const sent = mock.requests().filter((r) => r.api !== null);
    expect(sent.length).toBeGreaterThan(0);
    for (const r of sent) expect(r.headers.referer, r.path).toBeUndefined();
  });
});

test.describe("keys in provider errors", () => {
  test("an error body quoting the key is shown and stored redacted", async ({ page, mock }) => {
    await openConfigured(page, mock, { model: { provider: "openai", id: "gpt-4o" } });
    // A server that echoes the whole key it was sent, as several OpenAI-compatible ones do.
    // The built-in OpenAI provider speaks Responses.
    await page.route(`${mock.openaiBaseUrl}/responses`, (route) =>
      route.fulfill({
        status: 401,
        headers: { "content-type": "application/json", "access-control-allow-origin": "*" },
        body: JSON.stringify({
          error: { message: `invalid x-api-key: ${OPENAI_KEY} (Authorization: Bearer ${OPENAI_KEY})`, code: 401 },
        }),
      }),
    );
    await send(page, "Hello?");
    const reply = assistantMessages(page).last();
    await expect(reply.getByRole("alert")).toContainText("[redacted]", { timeout: 10_000 });
    await expect(reply).not.toContainText(OPENAI_KEY);
    await expect(reply.getByRole("alert")).toContainText(/API key was rejected/);

    // What was stored: the same words after a reload.
    await page.reload();
    const stored = assistantMessages(page).last();
    await expect(stored.getByRole("alert")).toContainText("[redacted]");
    await expect(stored).not.toContainText(OPENAI_KEY);
    expect(await page.content()).not.toContain(OPENAI_KEY.slice(3));
  });
});
