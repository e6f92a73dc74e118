import { beforeAll, describe, expect, it } from "vitest";
import { buildContext } from "../session/build-context";
import { contextBlockText, type LlmContext } from "../session/context";
import { countContextTokens } from "../session/context-tokens";
import type { Entry } from "../session/entries";
import { a, linkPath, u } from "../testing/entries";
import {
  CALIBRATION_DECAY,
  type CalibrationState,
  type CalibrationTable,
  calibratedCount,
  calibrationFor,
  claudeTokenizerPrior,
  initialCalibration,
  isCalibrated,
  NEWER_CLAUDE_TOKENIZER_FACTOR,
  updateCalibration,
  withCalibrationSample,
} from "./claude-estimate";
import { counterFor } from "./counter-for";
import type { TokenCounter } from "./tokenizer";

let claude: TokenCounter;
beforeAll(async () => {
  claude = await counterFor({ encoding: "claude" });
});

/**
 * What the e2e mock provider reports as `usage.input` for a request (e2e/mock-server/plan.ts):
 * ceil(characters of model-visible content / 4), system prompt included for Anthropic.
 */
function mockReportedInput(context: LlmContext): number {
  let chars = context.system.length;
  for (const m of context.messages) for (const b of m.content) chars += contextBlockText(b).length;
  return Math.max(1, Math.ceil(chars / 4));
}

const SENTENCES = [
  "The river behind the old mill floods every spring, and the town has learned to plan around it.",
  "Could you explain why the bridge was built so low, given how often the water rises?",
  "Engineers in 1911 had a tight budget, so they reused the mill's foundations instead of digging new ones.",
  "That choice saved money at first but made the bridge vulnerable to ice jams in March.",
  "What would it cost today to raise the deck by two meters and widen the channel underneath?",
  "A rough estimate is four to six million, depending on whether the historic stonework must be kept.",
  "Residents disagree: some want the old look preserved, others care only about fewer closures.",
  "Please summarize the options so I can present them at the council meeting next Tuesday.",
];

/** Message `i` of a deterministic prose conversation: 2–5 sentences, alternating roles. */
function messageText(i: number): string {
  const n = 2 + ((i * 7) % 4);
  return Array.from({ length: n }, (_, k) => SENTENCES[(i * 3 + k) % SENTENCES.length]).join(" ");
}

const SYSTEM = "You are a careful assistant helping a town council understand infrastructure trade-offs.";

/** The request sent for user turn `turn` (0-based): the path up to that user message, built for Anthropic. */
function request(turn: number): LlmContext {
  const specs = [];
  for (let i = 0; i <= turn; i++) {
    specs.push(u(`u${i}`, messageText(2 * i)));
    if (i < turn) specs.push(a(`a${i}`, messageText(2 * i + 1)));
  }
  const path: Entry[] = linkPath(specs);
  return buildContext(path, { systemPrompt: SYSTEM, targetApi: "anthropic-messages" });
}

const rawCount = (context: LlmContext) => countContextTokens(context, (t) => claude.count(t));

describe("claudeTokenizerPrior", () => {
  it("assumes the newer tokenizer for Claude 4.7 and later, and for versions it can't read", () => {
    const newer = NEWER_CLAUDE_TOKENIZER_FACTOR;
    const cases: Array<[string, number]> = [
      ["claude-opus-4-7", newer],
      ["claude-opus-4.8", newer],
      ["claude-sonnet-5", newer],
      ["claude-fable-5-1", newer],
      ["anthropic/claude-haiku-5-5-20261001", newer],
      ["claude-sonnet-4-6", 1],
      ["claude-haiku-4-5-20251001", 1],
      ["claude-3-5-sonnet-20241022", 1],
      ["claude-3-opus", 1],
      ["claude-next", newer],
      ["gpt-4o", 1],
    ];
    for (const [id, prior] of cases) expect({ id, prior: claudeTokenizerPrior(id) }).toEqual({ id, prior });
  });
});

describe("calibration against the mock provider", () => {
  it("shows ≈ until the first reply and is within 2% of the reported input after three replies", () => {
    for (const model of ["claude-sonnet-4-5", "claude-opus-4-7"]) {
      let state: CalibrationState = initialCalibration(model);
      expect(isCalibrated(state)).toBe(false);
      for (let turn = 0; turn < 3; turn++) {
        const sent = request(turn);
        state = updateCalibration(state, { reportedInput: mockReportedInput(sent), localCount: rawCount(sent) });
        expect(isCalibrated(state)).toBe(true);
      }
      const next = request(3);
      const predicted = calibratedCount(state, rawCount(next));
      const reported = mockReportedInput(next);
      // Measured: 601 predicted vs 596 reported (0.8%); before any reply 610 (legacy prior) / 793 (4.7+ prior).
      expect({ model, error: Math.abs(predicted - reported) / reported < 0.02 }).toEqual({ model, error: true });
    }
  });

  it("applies the prior before any sample", () => {
    const state = initialCalibration("claude-opus-4-7");
    expect(calibratedCount(state, 1000)).toBe(Math.round(1000 * NEWER_CLAUDE_TOKENIZER_FACTOR));
    expect(calibratedCount(initialCalibration("claude-sonnet-4-5"), 1000)).toBe(1000);
  });
});

describe("updateCalibration", () => {
  const start = initialCalibration("claude-sonnet-4-5");

  it("takes the first sample's ratio as is, whatever the prior", () => {
    const s = updateCalibration(initialCalibration("claude-opus-4-7"), { reportedInput: 900, localCount: 1000 });
    expect(s.ratio).toBeCloseTo(0.9, 10);
    expect(s.samples).toBe(1);
  });

  it("weighs samples by size: a tiny request barely moves a calibration made on large ones", () => {
    let s = updateCalibration(start, { reportedInput: 9_000, localCount: 10_000 });
    s = updateCalibration(s, { reportedInput: 2, localCount: 5 }); // ratio 0.4, from overhead-dominated "Hello"
    expect(s.ratio).toBeGreaterThan(0.89);
  });

  it("follows a change of content within a few replies (old samples decay)", () => {
    let s = updateCalibration(start, { reportedInput: 1_000, localCount: 1_000 });
    for (let i = 0; i < 5; i++) s = updateCalibration(s, { reportedInput: 800, localCount: 1_000 });
    // Decayed sums: the first sample now weighs DECAY⁵, the five newer ones DECAY⁴ … DECAY⁰.
    let reported = 0;
    let local = 0;
    for (let age = 0; age < 5; age++) {
      reported += 800 * CALIBRATION_DECAY ** age;
      local += 1_000 * CALIBRATION_DECAY ** age;
    }
    reported += 1_000 * CALIBRATION_DECAY ** 5;
    local += 1_000 * CALIBRATION_DECAY ** 5;
    expect(s.ratio).toBeCloseTo(reported / local, 10);
    expect(Math.abs(s.ratio - 0.8)).toBeLessThan(0.01);
  });

  it("ignores missing, non-positive and implausible samples", () => {
    const bogus = [
      { reportedInput: 0, localCount: 100 },
      { reportedInput: 100, localCount: 0 },
      { reportedInput: -5, localCount: 100 },
      { reportedInput: Number.NaN, localCount: 100 },
      { reportedInput: 1_000, localCount: 100 }, // 10×: not the same request
      { reportedInput: 10, localCount: 1_000 },
    ];
    for (const sample of bogus) expect(updateCalibration(start, sample)).toBe(start);
  });
});

describe("CalibrationTable", () => {
  it("shares one calibration between a model's snapshot ids and spellings", () => {
    const t1 = withCalibrationSample({}, "claude-sonnet-4-5-20250929", { reportedInput: 950, localCount: 1_000 });
    expect(isCalibrated(calibrationFor(t1, "claude-sonnet-4.5"))).toBe(true);
    expect(calibrationFor(t1, "anthropic/claude-sonnet-4-5").ratio).toBeCloseTo(0.95, 10);
    expect(isCalibrated(calibrationFor(t1, "claude-opus-4-7"))).toBe(false);
  });

  it("returns the same table for an ignored sample, and a fresh state for a malformed persisted one", () => {
    const table: CalibrationTable = {};
    expect(withCalibrationSample(table, "claude-sonnet-4-5", { reportedInput: 0, localCount: 10 })).toBe(table);
    const persisted = JSON.parse('{"claude-sonnet-4-5": {"ratio": "1.1", "samples": 3}}') as CalibrationTable;
    expect(calibrationFor(persisted, "claude-sonnet-4-5")).toEqual(initialCalibration("claude-sonnet-4-5"));
  });
});
