import { describe, expect, it } from "vitest";
import { matchesSettingsQuery, normalizeForSearch } from "./settings-search";

const COMPACTION = ["Automatic compaction", "Reserve tokens", "Threshold percent", "Summary model"];

describe("matchesSettingsQuery", () => {
  it("an empty or blank query shows every section", () => {
    expect(matchesSettingsQuery("", "Compaction", COMPACTION)).toBe(true);
    expect(matchesSettingsQuery("   ", "Data", [])).toBe(true);
  });
  it("matches the section name or any of its terms, ignoring case", () => {
    expect(matchesSettingsQuery("compac", "Compaction", COMPACTION)).toBe(true);
    expect(matchesSettingsQuery("THRESHOLD", "Compaction", COMPACTION)).toBe(true);
    expect(matchesSettingsQuery("theme", "Compaction", COMPACTION)).toBe(false);
  });
  it("needs every word, in any order and across terms", () => {
    expect(matchesSettingsQuery("tokens reserve", "Compaction", COMPACTION)).toBe(true);
    expect(matchesSettingsQuery("reserve theme", "Compaction", COMPACTION)).toBe(false);
  });
  it("ignores accents on either side", () => {
    expect(matchesSettingsQuery("thème", "Appearance", ["Theme"])).toBe(true);
    expect(matchesSettingsQuery("resume", "Models", ["Résumé model"])).toBe(true);
  });
  it("a word does not match across two terms", () => {
    expect(matchesSettingsQuery("tokensthreshold", "Compaction", COMPACTION)).toBe(false);
  });
});

describe("normalizeForSearch", () => {
  it("folds case, accents and spaces", () => {
    expect(normalizeForSearch("  Clé   API\tÉtat ")).toBe("cle api etat");
  });
});
