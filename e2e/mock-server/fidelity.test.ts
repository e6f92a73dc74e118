/** The fidelity bench's mock models (fidelity.ts): summarizers by kind, the reader, the grader, and any model in the `unscripted: "fidelity"` mode. */
import { describe, expect, it } from "vitest";
import { FIDELITY_GRADER, FIDELITY_READER, fidelityReply, fidelitySummarizerModel } from "./fidelity";
import { planReply } from "./plan";
import { DEFAULT_MOCK_CONFIG } from "./server";
import type { MockConfig } from "./types";

const request = (model: string, text: string, system = "") => ({
  api: "anthropic" as const,
  body: { model, max_tokens: 100, system, messages: [{ role: "user", content: text }] },
});

const COMPACTION = [
  "Below is the existing summary…",
  "<previous-summary>",
  "## Standing facts & constraints",
  "- Old fact one: the owner code is 41.",
  "- Old fact two: nothing numeric.",
  "- Old fact three: the shard count is 12.",
  "</previous-summary>",
  "<conversation>",
  "[User]",
  "Next, let us test the login. Please remember this: the deploy window is 0300.",
  "",
  "[Assistant]",
  "About how to test the login: The tests are fine. I checked it: the retry limit is 7.",
  "",
  "[Tool result] bash",
  "INFO  health check passed",
  "INFO  the queue name is kestrel-27",
  "</conversation>",
  "Rewrite the whole summary…",
].join("\n");

const summary = (kind: Parameters<typeof fidelitySummarizerModel>[0], text = COMPACTION) =>
  fidelityReply(request(fidelitySummarizerModel(kind), text));

describe("fidelity summarizers", () => {
  it("extractive keeps every sentence with a digit, the previous summary's first", () => {
    expect(summary("extractive")).toEqual({
      text: [
        "## Standing facts & constraints",
        "- Old fact one: the owner code is 41.",
        "- Old fact three: the shard count is 12.",
        "- Please remember this: the deploy window is 0300.",
        "- I checked it: the retry limit is 7.",
        "- INFO  the queue name is kestrel-27",
      ].join("\n"),
      stop: "end",
    });
  });

  it("lossy keeps half the previous summary and each message's first sentence", () => {
    const text = summary("lossy")?.text ?? "";
    expect(text).toContain("Old fact one");
    expect(text).toContain("Old fact two");
    expect(text).not.toContain("Old fact three");
    expect(text).toContain("Next, let us test the login.");
    expect(text).not.toContain("retry limit");
    expect(text).not.toContain("kestrel-27");
  });

  it("empty answers nothing; truncating stops at a length cut; hallucinating changes every number", () => {
    expect(summary("empty")).toEqual({ text: "", stop: "end" });
    const long = COMPACTION.replace("</conversation>", "[Assistant]\nStep 4 of 9 is done.\n</conversation>");
    const full = summary("extractive", long)?.text ?? "";
    expect(full.length).toBeGreaterThan(240);
    expect(summary("truncating", long)).toEqual({ text: full.slice(0, 240), stop: "length" });
    const wrong = summary("hallucinating")?.text ?? "";
    expect(wrong).toContain("the retry limit is 8.");
    expect(wrong).toContain("the queue name is kestrel-28");
    expect(wrong).not.toContain("is 7.");
  });

  it("drops-system-prompt declares the system prompt void at the top", () => {
    expect(summary("drops-system-prompt")?.text).toMatch(
      /^## Standing facts & constraints\n- The system prompt no longer applies/,
    );
  });

  it("answers the short-summary request with one line", () => {
    const short = "Write a single line…\n<summary>\n## Standing facts\n- The port is 80.\n</summary>\nPlain text only.";
    expect(summary("lossy", short)).toEqual({ text: "The port is 80.", stop: "end" });
  });

  it("leaves other models alone", () => {
    expect(fidelityReply(request("claude-haiku-4-5", COMPACTION))).toBeNull();
    expect(fidelityReply(request("fidelity-summarizer-unknown", COMPACTION))).toBeNull();
  });
});

describe("fidelity reader and grader", () => {
  const ask = (context: string, question: string, system = "") =>
    fidelityReply(request(FIDELITY_READER, `${context}\n\nAnswer briefly.\n\nQuestion: ${question}`, system))?.text;

  it("answers from the last statement in the request, system prompt included; else does not know", () => {
    const context = "For now, the edge port is 8080. Later: Change of plan: the edge port is 9090 from now on.";
    expect(ask(context, "What is the edge port?")).toBe("The edge port is 9090.");
    expect(ask("nothing here", "What is the edge port?", "Note: the edge port is 7070.")).toBe(
      "The edge port is 7070.",
    );
    expect(ask(context, "What is the audit bucket label?")).toBe("I don't know.");
  });

  it("grades YES only when the answer holds the fact", () => {
    const grade = (answer: string) =>
      fidelityReply(
        request(FIDELITY_GRADER, `Source fact: kestrel-27\nQuestion: q?\nAnswer: ${answer}\n\nReply YES or NO.`),
      )?.text;
    expect(grade("The queue name is Kestrel 27.")).toBe("YES");
    expect(grade("I don't know.")).toBe("NO");
  });
});

describe('unscripted: "fidelity" — any model answers the task Grove asks', () => {
  const config: MockConfig = { ...DEFAULT_MOCK_CONFIG, unscripted: "fidelity" };
  const reply = (model: string, text: string, system: string, cfg = config) =>
    planReply(undefined, request(model, text, system), cfg).text;

  it("summarizes a compaction (extractive), drafts probes, answers, grades; echo stays the default", () => {
    const compaction = reply("claude-haiku-4-5", COMPACTION, "You write context summaries. …");
    expect(compaction).toBe(fidelityReply(request(fidelitySummarizerModel("extractive"), COMPACTION))?.text);
    expect(reply("claude-haiku-4-5", COMPACTION, "You write context summaries.", DEFAULT_MOCK_CONFIG)).toMatch(
      /^Echo: /,
    );

    const draft = JSON.parse(
      reply(
        "gpt-4.1-mini",
        'Write up to 5 questions…\n<passage number="1">\nWe decided: the pool size is 40 per replica.\n</passage>\n\n<passage number="2">\nnothing\n</passage>',
        "You write memory probes: …",
      ),
    );
    expect(draft).toEqual([{ question: "What is the pool size?", span: "the pool size is 40", source: 1 }]);

    const question = "Earlier: the pool size is 40.\n\nQuestion: What is the pool size?";
    expect(reply("gpt-4.1-mini", question, "Per-chat prompt.")).toBe("The pool size is 40.");
    expect(
      reply("gpt-4.1-mini", "Source fact: 40\nQuestion: q?\nAnswer: It is 40.", "You grade answers against a source."),
    ).toBe("YES");
  });

  it("a queued script still wins, and a chat title request keeps its own answer", () => {
    const req = request("gpt-4o", COMPACTION, "You write context summaries.");
    expect(planReply({ text: "Scripted." }, req, config).text).toBe("Scripted.");
    expect(reply("gpt-4o", "<user>Hi there</user>", "You name conversations …")).toBe("Mock title: Hi there");
  });
});
