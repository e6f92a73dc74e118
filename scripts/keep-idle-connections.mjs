/**
 * For a test server the browser talks to: Node closes an idle kept-alive connection after 5 s, and
 * a request the browser sends on it at that moment fails as "Failed to fetch" (a POST is not
 * retried), so the app rightly reports the server unreachable in the middle of a test. Idle
 * connections stay open: the browser closes its own, and the server's `close()` must call
 * `closeAllConnections()` first.
 * @param {import("node:http").Server} server
 */
export function keepIdleConnections(server) {
  server.keepAliveTimeout = 0;
}
