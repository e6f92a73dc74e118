/**
 * Errors have one author: what the user reads about a provider failure is the classifier's
 * sentence, said once (no headline in front of it repeating it in other words).
 */
import { assistantMessages, openConfigured, send } from "./app";
import { messageAlert } from "./faults-helpers";
import { expect, test } from "./fixtures";

/** The alert's text without its Retry button, sentence by sentence. */
async function sentences(alert: ReturnType<typeof messageAlert>): Promise<string[]> {
  const text = (await alert.locator("span").first().textContent()) ?? "";
  return text.split(/(?<=\.)\s+/).filter(Boolean);
}

test("an overflow is explained once", async ({ page, mock }) => {
  await openConfigured(page, mock);
  mock.enqueue("anthropic", { fault: { kind: "http", status: 400 } });
  await send(page, "A very long paste");
  const alert = messageAlert(assistantMessages(page).last());
  await expect(alert).toContainText(/too long for this model's context window/i, { timeout: 10_000 });
  const said = await sentences(alert);
  expect(said[0]).toMatch(/^The conversation is too long for this model's context window \(400\)\.$/);
  expect(said.filter((s) => /^The conversation is too long/.test(s))).toHaveLength(1);
});

test("a dropped connection is explained once", async ({ page, mock }) => {
  await openConfigured(page, mock);
  mock.enqueue("anthropic", { chunks: ["Kept ", "words", " more"], fault: { kind: "drop", afterChunks: 2 } });
  await send(page, "Go");
  const alert = messageAlert(assistantMessages(page).last());
  await expect(alert).toContainText(/connection/i, { timeout: 10_000 });
  const said = await sentences(alert);
  // One sentence about the connection, not "The connection to the provider was lost. The connection dropped."
  expect(said.filter((s) => /connection/i.test(s) && !/Check your connection/.test(s))).toHaveLength(1);
  expect(said.join(" ")).not.toContain("The connection to the provider was lost.");
});
