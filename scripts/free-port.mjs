/**
 * A TCP port on 127.0.0.1 that nothing listens on right now (the OS picks it), for the servers the
 * benches and the sync tests start. Plain JavaScript so Node runs it without a build step.
 */
import { createServer } from "node:net";

/** @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
