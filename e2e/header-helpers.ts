/** The chat header's controls by bounding box: nothing overlaps, nothing is cut (issue 27 item 5). */
import type { Locator, Page } from "@playwright/test";
import { expect } from "./fixtures";

/** The two boxes share some area. */
export function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The header's visible controls, by what a user sees and names. */
export async function headerBoxes(page: Page) {
  const header = page.locator("header.chat-header");
  const parts: Record<string, Locator> = {
    title: header.getByRole("heading", { level: 1 }),
    model: header.getByRole("combobox", { name: "Model" }),
    options: header.getByRole("button", { name: /Model options/ }),
    deprecation: header.locator(".deprecation"),
    meter: header.locator(".meter"),
    graph: header.getByRole("button", { name: "History graph", exact: true }),
    settings: header.getByRole("button", { name: "Settings" }),
    actions: header.getByRole("button", { name: "Chat actions" }),
  };
  const boxes: Array<{ name: string; box: { x: number; y: number; width: number; height: number } }> = [];
  for (const [name, locator] of Object.entries(parts)) {
    if (!(await locator.isVisible())) continue;
    const box = await locator.boundingBox();
    if (box && box.width > 1) boxes.push({ name, box });
  }
  return { header: await header.boundingBox(), boxes };
}

export async function expectNoOverlap(page: Page): Promise<void> {
  const { header, boxes } = await headerBoxes(page);
  if (!header) throw new Error("no header");
  const names = boxes.map((b) => b.name);
  expect(names).toEqual(expect.arrayContaining(["title", "model", "meter", "settings"]));
  for (const [i, a] of boxes.entries()) {
    expect(a.box.x, `${a.name} starts inside the header`).toBeGreaterThanOrEqual(header.x - 1);
    expect(a.box.x + a.box.width, `${a.name} ends inside the header`).toBeLessThanOrEqual(header.x + header.width + 1);
    for (const b of boxes.slice(i + 1)) {
      expect(overlaps(a.box, b.box), `${a.name} overlaps ${b.name}`).toBe(false);
    }
  }
  // The title stays readable: a few words, not "Hi! …".
  const title = boxes.find((b) => b.name === "title");
  expect(title?.box.width ?? 0).toBeGreaterThanOrEqual(90);
}
