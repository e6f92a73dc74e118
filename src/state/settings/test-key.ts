/**
 * "Test key" on the first-run card: one cheap request (the provider's model list, `GET /v1/models`)
 * to the configured base URL, and what it found in plain words. Nothing is saved here.
 */
import type { MessageError } from "../../core/session/entries";
import { isMessageError } from "../../core/session/message-error";
import { listModels } from "../../providers/registry";
import type { ProviderConfig } from "../../providers/types";
import { describeFailure } from "../app/describe-failure";

export type KeyTest =
  | { kind: "ok"; models: string[] }
  /** The provider answered and refused the key (401/403). */
  | { kind: "rejected"; message: string }
  /** No answer: wrong address, offline, or a server that does not allow this page (CORS). */
  | { kind: "unreachable"; message: string }
  /** Any other answer (rate limit, server error, a refused address). */
  | { kind: "failed"; message: string };

/** Long enough for a slow provider; a test key should not hang the card. */
const KEY_TEST_TIMEOUT_MS = 15_000;

export async function testKey(provider: ProviderConfig, list = listModels): Promise<KeyTest> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), KEY_TEST_TIMEOUT_MS);
  try {
    return { kind: "ok", models: await list(provider, controller.signal) };
  } catch (e) {
    return keyTestFailure(e);
  } finally {
    clearTimeout(timer);
  }
}

function keyTestFailure(e: unknown): KeyTest {
  const error: MessageError = isMessageError(e)
    ? e
    : { kind: "unknown", message: "Something went wrong testing the key." };
  const message = describeFailure(error);
  switch (error.kind) {
    case "auth":
      return { kind: "rejected", message };
    case "network":
    case "aborted":
      return { kind: "unreachable", message };
    default:
      return { kind: "failed", message };
  }
}
