/**
 * Images code execution produced (issue 28 item 2): a chart shows under the code execution block, from
 * the blob Grove stored (never a remote address), named by its file name or "Chart produced by code
 * execution", opens full size, saves, survives a reload and a Grove JSON export → import into an empty
 * browser. OpenAI's `image` outputs (data: URLs, decoded in the page) and its container files; Claude's
 * Files API files. An SVG is offered as a download only. A failed download says so with Retry. The
 * mock serves a real PNG bar chart (e2e/mock-server/png.ts).
 */
import { mkdirSync, readFileSync } from "node:fs";
import type { Browser, Locator, Page } from "@playwright/test";
import { ANTHROPIC_KEY, chatAction, OPENAI_KEY, openConfigured } from "./app";
import { expect, type MockServer, test } from "./fixtures";
import { producedFileName } from "./mock-server/code-files";
import { CHART_PNG, CHART_WIDTH } from "./mock-server/png";
import { containerFileId, MOCK_CONTAINER } from "./mock-server/responses-tools";
import { codeExecutionReply, fileRequests } from "./tools-helpers";

const SHOTS = "test-results/tools-code-images";
const CHART_ALT = "Chart produced by code execution";

const producedList = (page: Page): Locator => page.getByRole("list", { name: "Files produced" });

/** The image is drawn (decoded: naturalWidth) from a blob: URL of this page, and is the mock's chart. */
async function expectChart(img: Locator): Promise<void> {
  await expect(img).toBeVisible({ timeout: 15_000 });
  await expect(img).toHaveJSProperty("naturalWidth", CHART_WIDTH);
  expect(await img.getAttribute("src")).toMatch(/^blob:/);
}

/** Every image under code execution blocks comes from a blob: no remote (or data:) address. */
async function expectOnlyBlobImages(page: Page): Promise<void> {
  const sources = await producedList(page)
    .locator("img")
    .evaluateAll((imgs) => imgs.map((i) => i.getAttribute("src") ?? ""));
  expect(sources.length).toBeGreaterThan(0);
  for (const src of sources) expect(src).toMatch(/^blob:/);
}

async function emptyBrowser(browser: Browser, mock: MockServer): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const page = await context.newPage();
  await openConfigured(page, mock);
  return page;
}

test("OpenAI's code interpreter chart: an image output and a container file shown from their blobs; the SVG a download only; kept after a reload and an export → import", async ({
  page,
  browser,
  mock,
}) => {
  test.slow(); // two browsers, a reload, an export and an import
  mkdirSync(SHOTS, { recursive: true });
  await codeExecutionReply(page, mock, "openai", "Plot a bar chart", {
    serverTools: [
      {
        kind: "code_execution",
        code: "import matplotlib.pyplot as plt\nplt.bar(range(4), [3, 5, 7, 4])\nplt.savefig('chart.png')\nplt.show()",
        stdout: "",
        images: ["png", "svg"],
        files: ["chart.png"],
      },
    ],
    text: "Here is the chart.",
  });

  const files = producedList(page);
  const output = files.getByRole("img", { name: CHART_ALT });
  const cited = files.getByRole("img", { name: "chart.png" });
  await expectChart(output);
  await expectChart(cited);
  // The SVG (it carries a script) is no image: a download, nothing rendered.
  await expect(files.getByRole("link", { name: "Download chart.svg" })).toBeVisible();
  await expect(files.locator("img")).toHaveCount(2);
  await expectOnlyBlobImages(page);
  // The image outputs were decoded in the page; only the cited container file was fetched, with the key.
  const content = fileRequests(mock, `/v1/containers/${MOCK_CONTAINER}/files/`);
  expect(content.map((r) => r.path)).toEqual([
    `/openai/v1/containers/${MOCK_CONTAINER}/files/${containerFileId("chart.png")}/content`,
  ]);
  expect(content[0]?.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);

  // The chart under its code block, the block opened to show the code.
  await page.getByRole("group", { name: "Tool call: code_interpreter" }).locator("summary").click();
  await page.locator(".message-scroll").screenshot({ path: `${SHOTS}/openai-chart.png` });

  // Full size, by keyboard; saved under its name with the bytes served.
  await files.getByRole("button", { name: `Open image ${CHART_ALT}` }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: CHART_ALT });
  await expectChart(dialog.getByRole("img", { name: CHART_ALT }));
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  const [saved] = await Promise.all([
    page.waitForEvent("download"),
    files.getByRole("link", { name: "Download chart.png" }).first().click(),
  ]);
  expect(readFileSync(await saved.path()).equals(CHART_PNG)).toBe(true);

  await page.reload();
  await expectChart(producedList(page).getByRole("img", { name: CHART_ALT }));
  await expectChart(producedList(page).getByRole("img", { name: "chart.png" }));
  expect(fileRequests(mock, `/v1/containers/${MOCK_CONTAINER}/files/`)).toHaveLength(1);

  const [exported] = await Promise.all([page.waitForEvent("download"), chatAction(page, "Grove JSON")]);
  const text = readFileSync(await exported.path(), "utf8");
  const fresh = await emptyBrowser(browser, mock);
  await fresh
    .getByLabel("Import file")
    .setInputFiles({ name: "chart.grove.json", mimeType: "application/json", buffer: Buffer.from(text) });
  await expect(fresh.getByText("Imported “Plot a bar chart” from a Grove JSON file.")).toBeVisible({ timeout: 15_000 });
  await fresh.getByRole("navigation", { name: "Sessions" }).getByRole("link").first().click();
  await expectChart(producedList(fresh).getByRole("img", { name: CHART_ALT }));
  await expectChart(producedList(fresh).getByRole("img", { name: "chart.png" }));
  // The SVG is carried as a produced file only a download offers (never stored typed as an image).
  await expect(producedList(fresh).getByRole("link", { name: "Download chart.svg" })).toBeVisible();
  await expectOnlyBlobImages(fresh);
  await fresh.context().close();
});

test("Claude's code execution chart: a Files API image shown under the block by its name, kept after a reload", async ({
  page,
  mock,
}) => {
  mkdirSync(SHOTS, { recursive: true });
  await codeExecutionReply(page, mock, "anthropic", "Draw a chart", {
    serverTools: [{ kind: "code_execution", code: "python plot.py", stdout: "saved\n", files: ["file_chart_png"] }],
    text: "The chart is ready.",
  });

  const name = producedFileName("file_chart_png");
  expect(name).toBe("chart.png");
  await expectChart(producedList(page).getByRole("img", { name }));
  await expect(producedList(page).getByRole("link", { name: `Download ${name}` })).toBeVisible();
  await expectOnlyBlobImages(page);
  const content = fileRequests(mock, "/v1/files/file_chart_png/content");
  expect(content).toHaveLength(1);
  expect(content[0]?.headers["x-api-key"] ?? content[0]?.headers.authorization).toContain(ANTHROPIC_KEY);
  await page.locator(".message-scroll").screenshot({ path: `${SHOTS}/claude-chart.png` });

  await page.reload();
  await expectChart(producedList(page).getByRole("img", { name }));
  expect(fileRequests(mock, "/v1/files/file_chart_png/content")).toHaveLength(1);
});

test("a chart whose download fails says so with Retry; Retry shows it", async ({ page, mock }) => {
  await codeExecutionReply(page, mock, "openai", "Plot it", {
    serverTools: [{ kind: "code_execution", code: "plot()", stdout: "", files: ["flaky_chart.png"] }],
    text: "Plotted.",
  });

  const files = producedList(page);
  await expect(files.getByRole("alert")).toContainText("Couldn't download flaky_chart.png:", { timeout: 15_000 });
  await expect(files.getByRole("alert")).toContainText("404");
  await expect(files.locator("img")).toHaveCount(0);
  await files.getByRole("button", { name: "Retry" }).click();
  await expectChart(files.getByRole("img", { name: "flaky_chart.png" }));
  await expect(files.getByRole("alert")).toHaveCount(0);
  await expect(page.getByText("Plotted.")).toBeVisible();
});
