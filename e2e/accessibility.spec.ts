/**
 * Accessibility (issue 12, item 12): axe-core, injected into the real app, reports no violations
 * on any main screen — in light and dark, at desktop and phone width. A failure lists each rule,
 * the elements it found and why, so the fix is obvious from the report alone.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { chatAction, openChatMenu, openConfigured, openHistoryGraph, sendAndWait } from "./app";
import { expect, test } from "./fixtures";
import { openSeeded, seed, TRIP, tripRows } from "./seed";

test.use({ actionTimeout: 10_000 });

/** The violations on the page as readable lines (rule, element, axe's reason). */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .exclude(".message-actions")
    .disableRules(["page-has-heading-one"])
    .analyze(); // PROBE
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id}: ${n.target.join(" ")} — ${n.failureSummary?.replace(/\s+/g, " ") ?? v.help}`),
  );
}

async function expectClean(page: Page, screen: string): Promise<void> {
  expect(await violations(page), `axe violations on "${screen}"`).toEqual([]);
}

const SCHEMES = ["light", "dark"] as const;
const SIZES = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

test("no axe violations in the history graph's Legend and after Fit (the outline), light and dark", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await seed(page, tripRows());
  await openSeeded(page, TRIP);
  await openHistoryGraph(page);
  const graph = page.getByRole("region", { name: "History graph" });
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    await graph.getByRole("button", { name: "Legend" }).click();
    await expect(graph.getByRole("list", { name: "Legend" })).toBeVisible();
    await expectClean(page, `history graph legend (${scheme})`);
    await graph.getByRole("button", { name: "Legend" }).click();
    await graph.getByRole("button", { name: "Fit" }).click();
    await expect(graph.locator(".graph-viewport.overview")).toHaveCount(1);
    await expectClean(page, `history graph after Fit (${scheme})`);
    await graph.getByRole("button", { name: "Current" }).click();
  }
});

for (const scheme of SCHEMES) {
  for (const size of SIZES) {
    test(`no axe violations on the main screens (${scheme}, ${size.name})`, async ({ page, mock }) => {
      test.setTimeout(120_000);
      await page.emulateMedia({ colorScheme: scheme });
      await page.setViewportSize({ width: size.width, height: size.height });
      const phone = size.name === "phone";
      const sessions = async () => {
        if (phone) await page.getByRole("button", { name: "Show sessions" }).click();
      };

      await page.goto("/");
      await expect(page.getByRole("main")).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Sessions" })).toBeAttached();
      await expectClean(page, "first start");

      await openConfigured(page, mock);
      await expectClean(page, "new chat");

      await sendAndWait(
        page,
        "Show me a wide code block.\n\n```js\nconst wide = '" +
          "x".repeat(300) +
          "';\n```\n\nAnd a | table |\n|---|---|\n| a | b |",
      );
      await expectClean(page, "chat");

      // A seeded chat with a compaction, a branch summary, a handoff and branches.
      await seed(page, tripRows());
      await openSeeded(page, TRIP);
      await expect(page.getByRole("article").first()).toBeVisible();
      await expectClean(page, "chat with compaction and branches");

      await openHistoryGraph(page);
      const graph = page.getByRole("region", { name: "History graph" });
      await expect(graph.getByRole("treeitem").first()).toBeVisible();
      await expectClean(page, "history graph");
      await graph.getByRole("button", { name: "Close history graph" }).click();

      await chatAction(page, "Compact");
      await expect(page.getByRole("dialog", { name: /Compact/ })).toBeVisible();
      await expectClean(page, "compact dialog");
      await page.keyboard.press("Escape");

      await page.getByRole("button", { name: "Settings" }).click();
      await expect(page.getByRole("dialog", { name: "Settings" })).toBeVisible();
      await expectClean(page, "settings");
      await page.keyboard.press("Escape");

      await openChatMenu(page);
      await expectClean(page, "chat actions menu");
      await page.keyboard.press("Escape");

      // A message's "More actions" menu, and the command palette.
      await page.getByRole("button", { name: "More actions" }).first().click();
      await expect(page.getByRole("menu").first()).toBeVisible();
      await expectClean(page, "message menu");
      await page.keyboard.press("Escape");
      await page.keyboard.press("Control+k");
      await expect(page.getByRole("dialog", { name: "Command palette" })).toBeVisible();
      await expectClean(page, "command palette");
      await page.keyboard.press("Escape");

      await sessions();
      await page.getByRole("searchbox", { name: "Search chats" }).fill("hotel");
      await expectClean(page, "search");
    });
  }
}
