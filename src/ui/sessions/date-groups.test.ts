import { describe, expect, it } from "vitest";
import { dateGroupLabel, groupByDate } from "./date-groups";

// Local times, so the test holds in any time zone.
const NOW = new Date(2026, 10, 24, 9, 30).getTime(); // 24 Nov 2026, 09:30
const at = (month: number, day: number, hour = 12) => new Date(2026, month, day, hour).getTime();

describe("dateGroupLabel", () => {
  it.each([
    ["earlier today", at(10, 24, 0), "Today"],
    ["late yesterday", at(10, 23, 23), "Yesterday"],
    ["early yesterday", at(10, 23, 0), "Yesterday"],
    ["two days ago", at(10, 22), "Previous 7 days"],
    ["six days ago", at(10, 18), "Previous 7 days"],
    ["seven days ago", at(10, 17), "Previous 30 days"],
    ["29 days ago", at(9, 26), "Previous 30 days"],
    ["30 days ago", at(9, 25), "October 2026"],
    ["last year", new Date(2025, 0, 5).getTime(), "January 2025"],
  ])("%s → %s", (_, when, label) => {
    expect(dateGroupLabel(when, NOW, "en-US")).toBe(label);
  });
  it("a clock running behind (a time after now) is still Today", () => {
    expect(dateGroupLabel(NOW + 3_600_000, NOW, "en-US")).toBe("Today");
  });
});

describe("groupByDate", () => {
  it("keeps the list's order, puts pinned chats first, and leaves out empty groups", () => {
    const chats = [
      { id: "a", updatedAt: at(10, 24, 8) },
      { id: "p", updatedAt: at(10, 20), pinned: true },
      { id: "b", updatedAt: at(10, 23) },
      { id: "c", updatedAt: at(9, 2) },
      { id: "d", updatedAt: at(8, 30) },
      { id: "e", updatedAt: at(8, 1) },
    ];
    const groups = groupByDate(chats, NOW, "en-US").map((g) => [g.label, g.items.map((c) => c.id).join("")]);
    expect(groups).toEqual([
      ["Pinned", "p"],
      ["Today", "a"],
      ["Yesterday", "b"],
      ["October 2026", "c"],
      ["September 2026", "de"],
    ]);
  });
  it("no chats, no groups", () => {
    expect(groupByDate([], NOW)).toEqual([]);
  });
  it("a time no Date can hold (an imported 1e300) is a group of its own, never a throw", () => {
    const groups = groupByDate([{ id: "x", updatedAt: 1e300 }], NOW, "en-US");
    expect(groups.map((g) => g.label)).toEqual(["unknown date"]);
  });
});
