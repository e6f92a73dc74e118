/**
 * Helpers shared by branching.spec.ts, sessions.spec.ts and settings.spec.ts: reading what the app
 * sent (role + text per message) and finding messages, their version controls and the session list.
 */
import type { Locator, Page } from "@playwright/test";
import { chatRequests } from "./app";
import { expect, type MockServer, type RecordedRequest } from "./fixtures";
import { requestMessages, requestSystem } from "./mock-server/index";

export type Turn = { role: string; text: string };

/** The conversation a chat request carried (system messages left out), as role + text. */
export function turns(req: RecordedRequest | undefined): Turn[] {
  if (!req) throw new Error("no request recorded");
  return requestMessages(req)
    .filter((m) => m.role !== "system" && m.role !== "developer")
    .map(({ role, text }) => ({ role, text }));
}

export function systemOf(req: RecordedRequest | undefined): string {
  if (!req) throw new Error("no request recorded");
  return requestSystem(req);
}

/** The newest chat request of an api; fails the test when there is none. */
export function lastChat(mock: MockServer, api: "anthropic" | "openai" = "anthropic"): RecordedRequest {
  const all = chatRequests(mock, api);
  const last = all[all.length - 1];
  if (!last) throw new Error(`no ${api} chat request recorded`);
  return last;
}

export const user = (text: string): Turn => ({ role: "user", text });
export const assistant = (text: string): Turn => ({ role: "assistant", text });

/** A finished message by role and (part of) its text. */
export function message(page: Page, role: "user" | "assistant", text: string): Locator {
  const prefix = role === "user" ? "User message" : "Assistant message";
  return page.locator(`article[aria-label^="${prefix}"]:not([aria-busy="true"])`).filter({ hasText: text });
}

/** The "n / m" version counter of a message. */
export async function expectVersion(msg: Locator, position: number, of: number): Promise<void> {
  await expect(msg.locator(".versions")).toHaveText(new RegExp(`${position}\\s*/\\s*${of}`));
}

export const sessionList = (page: Page): Locator => page.getByRole("navigation", { name: "Sessions" });

/** Session links in list order (their accessible names start with the title). */
export const sessionLinks = (page: Page): Locator => sessionList(page).getByRole("link");

/** The session id in the URL (`#/s/<id>`). */
export function sessionIdOf(page: Page): string {
  const match = /#\/s\/([^/?#]+)/.exec(page.url());
  if (!match?.[1]) throw new Error(`no session in the URL ${page.url()}`);
  return decodeURIComponent(match[1]);
}

/** What assistive technology sees of a `meter`: Chromium's accessibility tree, via CDP. */
export async function meterRange(page: Page, name: string): Promise<{ min: number; max: number; now: number }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send("Accessibility.getFullAXTree")) as {
      nodes: Array<{
        role?: { value?: unknown };
        name?: { value?: unknown };
        properties?: Array<{ name: string; value: { value?: unknown } }>;
      }>;
    };
    const node = nodes.find((n) => n.role?.value === "meter" && n.name?.value === name);
    if (!node) throw new Error(`no meter named ${name} in the accessibility tree`);
    const prop = (key: string) => Number(node.properties?.find((p) => p.name === key)?.value.value);
    return { min: prop("valuemin"), max: prop("valuemax"), now: prop("valuenow") };
  } finally {
    await cdp.detach();
  }
}
