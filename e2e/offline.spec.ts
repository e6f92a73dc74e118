/**
 * Installable and offline (issue 12 item 11): the built app has a web app manifest and a service
 * worker that precaches the whole build. Loaded once online, it reloads with the network gone
 * (the browser context offline: nothing reaches the app server or the mock) and shows the chat
 * list and an existing chat, rendered; a send then says plainly that the provider is unreachable.
 */
import { assistantMessages, openConfigured, send, sendAndWait, userMessages } from "./app";
import { expect, test } from "./fixtures";

test.use({ serviceWorkers: "allow" });

test("loaded once, Grove reloads offline: chat list and chat readable, a send says the provider is unreachable", async ({
  page,
  context,
  mock,
}) => {
  mock.enqueue("anthropic", { text: "Offline-safe answer with **bold** and `code`." });
  await openConfigured(page, mock);
  await sendAndWait(page, "Remember this");

  // Installable: the manifest names the app, its start URL and icons.
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(manifestHref).toBeTruthy();
  const manifest = await (await page.request.get(manifestHref ?? "")).json();
  expect(manifest).toMatchObject({ name: "Grove", start_url: "/", display: "standalone" });
  expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(expect.arrayContaining(["192x192", "512x512"]));

  // The worker has installed (precache complete) and controls the page.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  await context.setOffline(true);
  const served: string[] = [];
  page.on("response", (r) => served.push(`${r.fromServiceWorker() ? "sw" : "net"} ${r.url()}`));
  await page.reload();

  const sessions = page.getByRole("navigation", { name: "Sessions" });
  await expect(sessions.getByRole("link", { name: /Remember this/ })).toBeVisible();
  await expect(userMessages(page).last()).toContainText("Remember this");
  const reply = assistantMessages(page).last();
  // Rendered, not plain text: the Markdown chunk came from the worker's cache too.
  await expect(reply.locator("strong")).toHaveText("bold");
  expect(served.some((s) => s.startsWith("sw ") && s.endsWith("/"))).toBe(true);
  // Everything came from the worker: offline, nothing else could answer.
  expect(served.filter((s) => s.startsWith("net "))).toEqual([]);
  await page.screenshot({ path: test.info().outputPath("offline-reload.png") });

  const requestsBefore = mock.requests().length;
  await send(page, "Are you there?");
  const alert = assistantMessages(page).last().getByRole("alert");
  await expect(alert).toContainText("You're offline, so the provider is unreachable.");
  expect(mock.requests().length).toBe(requestsBefore);
  await page.screenshot({ path: test.info().outputPath("offline-send.png") });
});
