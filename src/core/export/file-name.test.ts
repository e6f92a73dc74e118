import { describe, expect, it } from "vitest";
import { utf8Length } from "../utf8-length";
import { exportDay, exportFileName, fileBaseName } from "./file-name";

/** Local noon, so the day is the same whatever the machine's time zone. */
const NOV_28 = new Date(2026, 10, 28, 12).getTime();

describe("fileBaseName: a title made safe for every OS", () => {
  it.each([
    ["Plain title", "Plain title"],
    ['a/b\\c:d*e?f"g<h>i|j', "a b c d e f g h i j"],
    ["Trip: Alps/Dolomites?", "Trip Alps Dolomites"],
    ["  ..hidden  ", "hidden"],
    ["trailing dots...", "trailing dots"],
    ["trailing dot and spaces .  . ", "trailing dot and spaces"],
    ["tab\tand\nnewline\u0007bell\u0000nul", "tab and newline bell nul"],
    ["many    spaces\u00a0\u2003here", "many spaces here"],
    ["fullwidth／slash：colon", "fullwidth slash colon"],
    ["evil\u202Etxt.exe", "eviltxt.exe"],
    ["zero\u200Bwidth", "zerowidth"],
    ["CON", "_CON"],
    ["nul", "_nul"],
    ["com1", "_com1"],
    ["LPT9.txt", "_LPT9.txt"],
    ["aux .md", "_aux .md"],
    ["Console", "Console"],
    ["", "chat"],
    ["///", "chat"],
    ["...", "chat"],
    ["\u202E\u200B", "chat"],
  ])("%j → %j", (title, name) => {
    expect(fileBaseName(title)).toBe(name);
  });

  it("keeps at most 80 characters and 160 bytes, never splitting an emoji or a surrogate pair", () => {
    expect(fileBaseName("x".repeat(200))).toBe("x".repeat(80));
    const emoji = fileBaseName("👩‍👩‍👧".repeat(40));
    expect(utf8Length(emoji)).toBeLessThanOrEqual(160);
    expect(emoji).toBe("👩‍👩‍👧".repeat(Math.floor(160 / utf8Length("👩‍👩‍👧"))));
    const kanji = fileBaseName("東".repeat(100));
    expect(Array.from(kanji)).toHaveLength(53); // 3 bytes each: 160 bytes hold 53
    expect(fileBaseName(`${"a".repeat(79)} .b`)).toBe("a".repeat(79)); // cut, then no trailing space
  });

  it("a name never holds a forbidden character, whatever the title", () => {
    const hostile = `CON<>:"/\\|?*\u0000\u001f\u007f\u202e .. ${"ü".repeat(90)} ..`;
    const name = fileBaseName(hostile);
    expect(name).not.toMatch(/[<>:"/\\|?*\p{Cc}\u202e]/u);
    expect(name).not.toMatch(/[. ]$/);
    expect(name.startsWith(".")).toBe(false);
  });
});

describe("exportFileName", () => {
  it("is the safe title, the day and the format's extension", () => {
    expect(exportFileName("Alps trip", "grove-json", NOV_28)).toBe("Alps trip 2026-11-28.grove.json");
    expect(exportFileName("Alps trip", "markdown", NOV_28)).toBe("Alps trip 2026-11-28.md");
    expect(exportFileName("Alps trip", "html", NOV_28)).toBe("Alps trip 2026-11-28.html");
    expect(exportFileName("Alps trip", "pi-jsonl", NOV_28)).toBe("Alps trip 2026-11-28.jsonl");
    expect(exportFileName('What is "a/b"? <script>', "markdown", NOV_28)).toBe("What is a b script 2026-11-28.md");
  });

  it("the day is the user's calendar day", () => {
    expect(exportDay(new Date(2026, 0, 5, 23, 59).getTime())).toBe("2026-01-05");
    expect(exportDay(new Date(2026, 11, 31, 0, 1).getTime())).toBe("2026-12-31");
  });
});
