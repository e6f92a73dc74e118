/**
 * Plain words for a failure, for status lines, error boxes and notices: core's `errorText` (the
 * classifier, providers/classify-error.ts, is the one author of a provider failure's sentence:
 * nothing is put in front of it; one stored without a message gets its kind's fallback), redacted.
 */

import { redactSecrets } from "../../core/net/redact";
import { errorText } from "../../core/session/message-error";

/**
 * New errors arrive redacted (providers/registry.ts); key-shaped tokens are redacted again here
 * for errors stored before that, so an old entry does not show a key either.
 */
export function describeFailure(failure: unknown): string {
  return redactSecrets(errorText(failure));
}
