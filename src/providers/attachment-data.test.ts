/**
 * Attachment blocks per provider: the same context (text, an image, a PDF) converted by each adapter,
 * the expected wire shapes written as the SDKs' own param types, so a shape the SDK does not declare
 * fails the type check, not only the assertion.
 */
import type { ContentBlockParam, MessageParam } from "@anthropic-ai/sdk/resources/messages";
import type { ChatCompletionContentPart, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ResponseInputContent, ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import type { LlmContext } from "../core/session/context";
import type { DocumentBlock, ImageBlock } from "../core/session/entries";
import type { BlobId } from "../core/session/ids";
import { convertMessages as anthropicMessages } from "./anthropic";
import { convertMessages as chatMessages } from "./openai";
import { convertMessages as responsesInput } from "./openai-responses";

const IMAGE: ImageBlock = { type: "image", blobId: "img" as BlobId, mimeType: "image/png", name: "chart.png" };
const PDF: DocumentBlock = {
  type: "document",
  blobId: "pdf" as BlobId,
  mimeType: "application/pdf",
  name: "table.pdf",
  size: 100,
};
const context: LlmContext = {
  system: "",
  messages: [{ role: "user", content: [{ type: "text", text: "What is in these?" }, IMAGE, PDF] }],
};
const data = new Map([
  [IMAGE.blobId, "aW1n"],
  [PDF.blobId, "cGRm"],
]);

describe("Anthropic Messages", () => {
  it("an image as an image block, a PDF as a document block, both with base64 sources", () => {
    const expected: MessageParam[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "What is in these?" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "aW1n" } },
          {
            type: "document",
            source: { type: "base64", media_type: "application/pdf", data: "cGRm" },
            title: "table.pdf",
          },
        ],
      },
    ];
    expect(anthropicMessages(context, data)).toEqual(expected);
  });

  it("without their data (a summarizer, a model that reads no images) they are named", () => {
    const named: ContentBlockParam[] = [
      { type: "text", text: "What is in these?" },
      { type: "text", text: "[image: chart.png]" },
      { type: "text", text: "[PDF: table.pdf]" },
    ];
    expect(anthropicMessages(context)).toEqual([{ role: "user", content: named }]);
  });
});

describe("OpenAI Responses", () => {
  it("an image as input_image, a PDF as input_file, both as data: URLs", () => {
    const expected: ResponseInputItem[] = [
      {
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: "What is in these?" },
          { type: "input_image", image_url: "data:image/png;base64,aW1n", detail: "auto" },
          { type: "input_file", filename: "table.pdf", file_data: "data:application/pdf;base64,cGRm" },
        ],
      },
    ];
    expect(responsesInput(context, data)).toEqual(expected);
  });

  it("a message without attachments stays one string", () => {
    const plain: LlmContext = { system: "", messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }] };
    expect(responsesInput(plain)).toEqual([{ type: "message", role: "user", content: "Hi" }]);
    const named: ResponseInputContent = { type: "input_text", text: "[image: chart.png]" };
    expect(responsesInput(context)[0]).toMatchObject({ content: [expect.anything(), named, expect.anything()] });
  });
});

describe("OpenAI Chat Completions", () => {
  it("an image as an image_url part, a PDF as a file part, both as data: URLs", () => {
    const parts: ChatCompletionContentPart[] = [
      { type: "text", text: "What is in these?" },
      { type: "image_url", image_url: { url: "data:image/png;base64,aW1n" } },
      { type: "file", file: { filename: "table.pdf", file_data: "data:application/pdf;base64,cGRm" } },
    ];
    const expected: ChatCompletionMessageParam[] = [{ role: "user", content: parts }];
    expect(chatMessages(context, data)).toEqual(expected);
  });

  it("a message without attachments stays one string (compatible servers reject part arrays)", () => {
    const plain: LlmContext = { system: "", messages: [{ role: "user", content: [{ type: "text", text: "Hi" }] }] };
    expect(chatMessages(plain)).toEqual([{ role: "user", content: "Hi" }]);
  });
});
