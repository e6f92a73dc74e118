/** Secrets redaction for provider messages: the rule lives in core/net/redact.ts (sync uses it too). */
export { REDACTED, redactError, redactSecrets } from "../core/net/redact";
