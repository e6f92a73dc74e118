/**
 * Secrets never reach a stored or shown provider message. Several OpenAI-compatible servers quote
 * the key they were sent ("invalid x-api-key: sk-ant-…"); the message is stored with the entry, so
 * without this the key would be on screen and in every export. One function, applied where errors
 * are classified (`classifyError`: key-shaped tokens) and where they leave the providers room
 * (`registry.ts`: the configured key as well, which need not look like a key).
 */
import type { MessageError } from "../session/entries";

export const REDACTED = "[redacted]";

/** Shorter "keys" are not worth redacting: replacing "abc" everywhere would garble the message. */
const MIN_SECRET_CHARS = 6;

/**
 * Token shapes of real keys, each with the provider that issues it. Order matters only for
 * readability: every match becomes `[redacted]`.
 */
const KEY_PATTERNS: readonly RegExp[] = [
  // Anthropic "sk-ant-api03-…", OpenRouter "sk-or-v1-…", OpenAI "sk-proj-…" / "sk-…", DeepSeek "sk-…";
  // OpenAI's own 401 masks the middle ("sk-abc1*********wxyz"), which is still the key's ends.
  /\bsk-[A-Za-z0-9_*.-]{6,}/g,
  // Groq "gsk_…", xAI "xai-…", Perplexity "pplx-…", Hugging Face "hf_…"
  /\b(?:gsk_|xai-|pplx-|hf_)[A-Za-z0-9_-]{12,}/g,
  // Google AI Studio "AIza…"
  /\bAIza[A-Za-z0-9_-]{20,}/g,
];

/** "Bearer <token>", "x-api-key: <token>", "api_key=<token>": the value, whatever its shape. */
const LABELLED_SECRET =
  /\b((?:x-api-key|api[_-]?key|authorization|access[_-]?token)\s*[:=]\s*["']?(?:bearer\s+)?|bearer\s+)([^\s"',;&]{6,})/gi;

/**
 * `text` with the given secrets and anything shaped like an API key replaced by `[redacted]`.
 *
 * @example redactSecrets("invalid x-api-key: sk-ant-api03-abc", []) // "invalid x-api-key: [redacted]"
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const raw of secrets) {
    const secret = raw.trim();
    if (secret.length >= MIN_SECRET_CHARS) out = out.split(secret).join(REDACTED);
  }
  out = out.replace(LABELLED_SECRET, (_m, label: string, value: string) =>
    value === REDACTED ? `${label}${value}` : `${label}${REDACTED}`,
  );
  for (const pattern of KEY_PATTERNS) out = out.replace(pattern, REDACTED);
  return out;
}

/** The error with its message redacted (the same object when nothing changed). */
export function redactError(error: MessageError, secrets: readonly string[] = []): MessageError {
  const message = redactSecrets(error.message, secrets);
  return message === error.message ? error : { ...error, message };
}
