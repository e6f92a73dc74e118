/** Plain words for a failure, for status lines and notices. Provider messages are already classified. */
import type { MessageError } from "../../core/session/entries";

const HEADLINE: Record<MessageError["kind"], string> = {
  context_overflow: "The conversation is too long for this model's context window.",
  output_length: "The reply hit the output length limit.",
  rate_limit: "The provider is rate-limiting requests.",
  auth: "The provider rejected the API key.",
  overloaded: "The provider is overloaded right now.",
  server: "The provider had a server error.",
  network: "The connection to the provider was lost.",
  invalid_request: "The provider rejected the request.",
  aborted: "Stopped.",
  unknown: "Something went wrong talking to the provider.",
};

export function headlineFor(error: MessageError): string {
  return HEADLINE[error.kind];
}

export function describeFailure(error: MessageError): string {
  const headline = HEADLINE[error.kind];
  return error.message && error.message !== headline ? `${headline} ${error.message}` : headline;
}
