import { describe, expect, it } from "vitest";
import { classifyError } from "../../providers/classify-error";
import { describeFailure } from "./describe-failure";

describe("describeFailure: the classifier is the one author", () => {
  it.each([
    [
      "an overflow",
      Object.assign(new Error("400 prompt is too long: 210000 tokens > 200000 maximum"), {
        status: 400,
        error: {
          type: "error",
          error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" },
        },
      }),
      /too long/i,
    ],
    ["a dropped connection", new TypeError("network error"), /connection/i],
    ["a rate limit", Object.assign(new Error("429"), { status: 429 }), /rate-limiting/i],
  ])("%s is said once, in the classifier's words", (_name, err, topic) => {
    const error = classifyError(err, "anthropic-messages");
    const text = describeFailure(error);
    expect(text).toBe(error.message);
    expect(text).toMatch(topic);
    // No sentence appears twice ("The conversation is too long… The conversation is too long…").
    const sentences = text.split(/(?<=\.)\s+/).filter(Boolean);
    expect(new Set(sentences).size).toBe(sentences.length);
  });

  it("an error stored without words still says what happened", () => {
    expect(describeFailure({ kind: "quota", message: "" })).toBe("Your account has run out of credit or quota.");
    expect(describeFailure({ kind: "network", message: "  " })).toBe("The connection to the provider was lost.");
  });

  it("an error stored before redaction existed does not show a key-shaped token", () => {
    expect(
      describeFailure({
        kind: "auth",
        message: "The API key was rejected (401). Provider said: invalid x-api-key: sk-ant-api03-abcdef",
      }),
    ).toBe("The API key was rejected (401). Provider said: invalid x-api-key: [redacted]");
  });
});
