/**
 * Code execution's produced files as attachments (issue 28 item 2): after the reply Grove downloads
 * each file with the user's key from that provider (Anthropic's Files API; OpenAI's container files),
 * stores it as a blob and shows it under the code execution block to save; it survives a reload and
 * rides in Grove JSON. A failed download says so on that file, with Retry. The mock serves the files
 * (e2e/mock-server/code-files.ts) and records who asked with which key.
 */
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { ANTHROPIC_KEY, chatAction, OPENAI_KEY } from "./app";
import { expect, test } from "./fixtures";
import { producedFileName, producedFileText } from "./mock-server/code-files";
import { containerFileId, MOCK_CONTAINER } from "./mock-server/responses-tools";
import { codeExecutionReply, fileRequests } from "./tools-helpers";

/** Clicks the file's download link; the saved bytes as text. */
async function downloaded(page: Page, name: string): Promise<string> {
  const link = page.getByRole("list", { name: "Files produced" }).getByRole("link", { name: `Download ${name}` });
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toBe(name);
  return readFileSync(await download.path(), "utf8");
}

test("Claude's code execution file: downloaded with the key from the Files API, saved as it was served, kept after a reload", async ({
  page,
  mock,
}) => {
  await codeExecutionReply(page, mock, "anthropic", "Write a report file", {
    serverTools: [{ kind: "code_execution", code: "echo hi > report.txt", stdout: "done\n", files: ["file_report"] }],
    text: "I wrote the report.",
  });

  const name = producedFileName("file_report");
  const files = page.getByRole("list", { name: "Files produced" });
  await expect(files.getByRole("link", { name: `Download ${name}` })).toBeVisible({ timeout: 15_000 });
  await expect(files).toContainText(`${Buffer.byteLength(producedFileText("file_report"))} B`);
  await page.screenshot({ path: "test-results/tools-code-files/claude-file.png" });
  expect(await downloaded(page, name)).toBe(producedFileText("file_report"));

  const content = fileRequests(mock, "/v1/files/file_report/content");
  expect(content).toHaveLength(1);
  expect(content[0]?.headers["x-api-key"] ?? content[0]?.headers.authorization).toContain(ANTHROPIC_KEY);
  expect(content[0]?.headers["anthropic-beta"]).toContain("files-api-2025-04-14");

  await page.reload();
  expect(await downloaded(page, name)).toBe(producedFileText("file_report"));
  // Stored once: the reload read it from the blob, not the provider.
  expect(fileRequests(mock, "/v1/files/file_report/content")).toHaveLength(1);

  // Grove JSON carries it like an attachment: the blob and the record naming it.
  const [exported] = await Promise.all([page.waitForEvent("download"), chatAction(page, "Grove JSON")]);
  const file = JSON.parse(readFileSync(await exported.path(), "utf8")) as {
    sessions: Array<{ blobs?: Array<{ id: string; data: string }>; entries: Array<{ type: string; data?: unknown }> }>;
  };
  const session = file.sessions[0];
  const data = Buffer.from(producedFileText("file_report")).toString("base64");
  expect(session?.blobs).toEqual([expect.objectContaining({ data })]);
  const recorded = session?.entries.find((e) => e.type === "custom")?.data as { files: { blobId: string }[] };
  expect(recorded.files.map((f) => f.blobId)).toEqual([session?.blobs?.[0]?.id]);
});

test("OpenAI's code interpreter file: the container file the reply cites, downloaded with the key, saved as served", async ({
  page,
  mock,
}) => {
  await codeExecutionReply(page, mock, "openai", "Make a CSV", {
    serverTools: [{ kind: "code_execution", code: "open('data.csv','w')", stdout: "", files: ["data.csv"] }],
    text: "Here is data.csv.",
  });

  expect(await downloaded(page, "data.csv")).toBe(producedFileText(containerFileId("data.csv")));
  const content = fileRequests(mock, `/v1/containers/${MOCK_CONTAINER}/files/`);
  expect(content).toHaveLength(1);
  expect(content[0]?.path).toBe(`/openai/v1/containers/${MOCK_CONTAINER}/files/${containerFileId("data.csv")}/content`);
  expect(content[0]?.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);

  await page.reload();
  expect(await downloaded(page, "data.csv")).toBe(producedFileText(containerFileId("data.csv")));
});

test("a failed download says so on its file with Retry; Retry stores it, the reply untouched", async ({
  page,
  mock,
}) => {
  await codeExecutionReply(page, mock, "anthropic", "Make two files", {
    serverTools: [{ kind: "code_execution", code: "make both", stdout: "ok\n", files: ["file_flaky", "file_fine"] }],
    text: "Two files.",
  });

  const files = page.getByRole("list", { name: "Files produced" });
  // The other file is stored; the flaky one says why it is not.
  await expect(files.getByRole("link", { name: `Download ${producedFileName("file_fine")}` })).toBeVisible({
    timeout: 15_000,
  });
  await expect(files.getByRole("alert")).toContainText("Couldn't download file_flaky:");
  await expect(files.getByRole("alert")).toContainText("404");
  await files.getByRole("button", { name: "Retry" }).click();

  const name = producedFileName("file_flaky");
  await expect(files.getByRole("link", { name: `Download ${name}` })).toBeVisible({ timeout: 15_000 });
  await expect(files.getByRole("alert")).toHaveCount(0);
  expect(await downloaded(page, name)).toBe(producedFileText("file_flaky"));
  await expect(page.getByText("Two files.")).toBeVisible();
});
