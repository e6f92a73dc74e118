/**
 * Plain words for a provider failure, for status lines, error boxes and notices. The classifier
 * (providers/classify-error.ts) is the one author of the sentence: nothing is put in front of it.
 * The fallback covers an error stored without a message.
 */
import type { MessageError } from "../../core/session/entries";
import { redactSecrets } from "../../providers/redact";

const FALLBACK: Record<MessageError["kind"], string> = {
  context_overflow: "The conversation is too long for this model's context window.",
  output_length: "The reply hit the output length limit.",
  rate_limit: "The provider is rate-limiting requests.",
  quota: "Your account has run out of credit or quota.",
  auth: "The provider rejected the API key.",
  overloaded: "The provider is overloaded right now.",
  server: "The provider had a server error.",
  network: "The connection to the provider was lost.",
  invalid_request: "The provider rejected the request.",
  aborted: "Stopped.",
  unknown: "Something went wrong talking to the provider.",
};

/**
 * New errors arrive redacted (providers/registry.ts); key-shaped tokens are redacted again here
 * for errors stored before that, so an old entry does not show a key either.
 */
export function describeFailure(error: MessageError): string {
  return redactSecrets(error.message).trim() || FALLBACK[error.kind];
}
