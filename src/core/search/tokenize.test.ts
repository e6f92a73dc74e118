import { describe, expect, it } from "vitest";
import { cjkGrams, isCjkTerm, MAX_TERM_LENGTH, processTerm, tokenize } from "./tokenize";

describe("tokenize", () => {
  it("cuts spaced scripts into words of letters, marks and digits (identifiers whole)", () => {
    expect(tokenize("Rust's borrow-checker: fetch_quokka() v2, café Ωμέγα привет")).toEqual([
      "Rust",
      "s",
      "borrow",
      "checker",
      "fetch_quokka",
      "v2",
      "café",
      "Ωμέγα",
      "привет",
    ]);
  });

  it("cuts a Chinese run into its character pairs and its last character", () => {
    expect(tokenize("机器学习")).toEqual(["机器", "器学", "学习", "习"]);
    expect(cjkGrams("猫")).toEqual(["猫"]);
  });

  it("cuts Japanese kana and kanji the same way, and keeps Latin words mixed in whole", () => {
    expect(tokenize("東京タワーへ行くGPUサーバー")).toEqual([
      "東京",
      "京タ",
      "タワ",
      "ワー",
      "ーへ",
      "へ行",
      "行く",
      "く",
      "GPU",
      "サー",
      "ーバ",
      "バー",
      "ー",
    ]);
  });

  it("keeps characters outside the basic plane whole (no split surrogate pairs)", () => {
    expect(tokenize("𠮷野家")).toEqual(["𠮷野", "野家", "家"]);
  });

  it("segments Thai into words where the engine can", () => {
    const terms = tokenize("ภาษาไทยง่ายมาก");
    expect(terms.length).toBeGreaterThan(1);
    expect(terms.join("")).toBe("ภาษาไทยง่ายมาก");
  });

  it("marks CJK terms", () => {
    expect(isCjkTerm("学习")).toBe(true);
    expect(isCjkTerm("learn")).toBe(false);
  });

  it("lower-cases terms and drops runs too long to be typed", () => {
    expect(processTerm("Zanzibar")).toBe("zanzibar");
    expect(processTerm("x".repeat(MAX_TERM_LENGTH + 1))).toBeNull();
  });
});
