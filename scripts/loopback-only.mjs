/**
 * Preloaded (`node --import ./scripts/loopback-only.mjs …`) into a test server that listens on a port
 * without naming a host (server-everything's `app.listen(PORT)`), so it binds 127.0.0.1 instead of every
 * interface: test servers are reachable from this machine only.
 */
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function listenOnLoopback(...args) {
  const [first, second] = args;
  const isPort = typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first));
  if (isPort && typeof second !== "string") args.splice(1, 0, "127.0.0.1");
  return listen.apply(this, args);
};
