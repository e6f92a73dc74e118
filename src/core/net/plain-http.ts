/**
 * The one rule for secrets over plain http (a provider's key, the sync server's password): plain
 * `http://` is fine to this machine or the local network by name; to any other host the secret
 * crosses the network unencrypted, so it is sent only once the user confirmed that origin.
 * providers/endpoint.ts applies it to API keys, db/sync/remote.ts to the CouchDB password.
 */

/** This machine or the local network by name: a plain http:// URL there does not cross the internet. */
export function isLocalHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return (
    h === "localhost" ||
    h.endsWith(".localhost") ||
    /^127(?:\.\d{1,3}){3}$/.test(h) ||
    h === "::1" ||
    h === "0:0:0:0:0:0:0:1" ||
    h.endsWith(".local")
  );
}

/**
 * The origin of `url` when it is plain http:// to a non-local host (the case that needs the user's
 * confirmation), else undefined.
 */
export function plainHttpOrigin(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  return parsed.protocol === "http:" && !isLocalHostname(parsed.hostname) ? parsed.origin : undefined;
}
