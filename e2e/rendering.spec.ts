/**
 * Rendering people expect (issue 12 item 7): TeX math through KaTeX (its CSS and fonts served by
 * the app itself, nothing from the network), Mermaid blocks drawn as diagrams once the reply is
 * complete, code coloured by language, and wide code blocks that the keyboard reaches (Tab) as
 * named, scrollable regions.
 */
import { assistantMessages, openConfigured, sendAndWait } from "./app";
import { expect, test } from "./fixtures";

test("math renders with KaTeX, inline and display, from the app's own fonts", async ({ page, mock }) => {
  mock.enqueue("anthropic", {
    text: "Euler: $e^{i\\pi} + 1 = 0$ and the Gaussian integral\n\n$$\n\\int_{-\\infty}^{\\infty} e^{-x^2}\\,dx = \\sqrt{\\pi}\n$$\n\nBroken: $\\frac{1}{$ stays readable.",
  });
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  await openConfigured(page, mock);
  await sendAndWait(page, "Some math please");
  const reply = assistantMessages(page).last();
  await expect(reply.locator(".katex")).toHaveCount(2);
  await expect(reply.locator(".katex-display")).toHaveCount(1);
  // MathML for assistive technology, the TeX as its annotation.
  await expect(reply.locator("math annotation").first()).toHaveText("e^{i\\pi} + 1 = 0");
  // The KaTeX stylesheet applied (its fonts are the app's own files).
  await expect
    .poll(() =>
      reply
        .locator(".katex")
        .first()
        .evaluate((el) => getComputedStyle(el).fontFamily),
    )
    .toContain("KaTeX_Main");
  await expect.poll(() => page.evaluate(() => document.fonts.check("16px KaTeX_Main"))).toBe(true);
  const origin = new URL(page.url()).origin;
  const fonts = requests.filter((u) => /\.(woff2?|ttf)(\?|$)/.test(u));
  expect(fonts.length).toBeGreaterThan(0);
  for (const u of fonts) expect(u.startsWith(origin)).toBe(true);
  // A TeX error shows its source (KaTeX's error rendering), the message still renders.
  await expect(reply.locator(".katex-error")).toHaveText("\\frac{1}{");
  await expect(reply).toContainText("stays readable");
  await reply.screenshot({ path: test.info().outputPath("math.png") });
});

test("a Mermaid block is drawn as a diagram in its sandboxed preview", async ({ page, mock }) => {
  mock.enqueue("anthropic", {
    text: "The flow:\n\n```mermaid\nflowchart LR\n  Start --> Decide{OK?}\n  Decide -->|yes| Done\n  Decide -->|no| Start\n```\n",
  });
  await openConfigured(page, mock);
  await sendAndWait(page, "Draw the flow");
  const reply = assistantMessages(page).last();
  const frame = reply.locator('iframe[title="Preview"]');
  await expect(frame).toHaveAttribute("sandbox", "");
  const svg = reply.frameLocator('iframe[title="Preview"]').locator("svg");
  await expect(svg).toContainText("OK?", { timeout: 15_000 });
  await expect(svg).toContainText("Done");
  await reply.screenshot({ path: test.info().outputPath("mermaid.png") });
});

test("a wide code block is a named region the Tab key reaches and the arrow keys scroll", async ({ page, mock }) => {
  mock.enqueue("anthropic", { text: `Wide:\n\n\`\`\`python\nx = "${"w".repeat(400)}"\n\`\`\`\n` });
  await openConfigured(page, mock);
  await sendAndWait(page, "Wide code");
  const reply = assistantMessages(page).last();
  const region = reply.getByRole("region", { name: "Code: python" });
  await expect(region).toBeVisible();
  // From the block's Copy button, the next Tab stop is the code itself.
  await reply.getByRole("button", { name: "Copy code" }).focus();
  await page.keyboard.press("Tab");
  await expect(region).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
});

test("code blocks are coloured by their language, in the reply and again after a reload", async ({ page, mock }) => {
  mock.enqueue("anthropic", {
    text: [
      "Two languages:",
      "```ts\nconst total: number = 40 + 2;\n```",
      "```python\ndef greet():\n    return 'hi'\n```",
      "and the same language again:",
      "```typescript\nexport function twice(n: number) { return n * 2; }\n```",
    ].join("\n\n"),
  });
  await openConfigured(page, mock);
  await sendAndWait(page, "Some code");
  const coloured = async () => {
    const reply = assistantMessages(page).last();
    const ts = reply.getByRole("region", { name: "Code: ts" });
    const py = reply.getByRole("region", { name: "Code: python" });
    const again = reply.getByRole("region", { name: "Code: typescript" });
    await expect(ts.locator(".hljs-keyword").first()).toHaveText("const");
    await expect(ts.locator(".hljs-number").first()).toHaveText("40");
    await expect(py.locator(".hljs-keyword").first()).toHaveText("def");
    await expect(py.locator(".hljs-string")).toHaveText("'hi'");
    await expect(again.locator(".hljs-keyword").first()).toHaveText("export");
    // Colour changes no text: each block still reads as its source.
    await expect(ts).toHaveText("const total: number = 40 + 2;");
  };
  await coloured();
  // Opened again in a fresh page: coloured from a later task (the grammar compiled first).
  await page.reload();
  await coloured();
  await assistantMessages(page)
    .last()
    .screenshot({ path: test.info().outputPath("code-colours.png") });
});
