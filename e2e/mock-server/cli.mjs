#!/usr/bin/env node
/**
 * Run the mock provider server on its own:
 *
 *   node e2e/mock-server/cli.mjs [--port 4599] [--host 127.0.0.1] [--strict] [--api-key KEY]
 *                                [--chunk-delay-ms 5] [--no-validate] [--unscripted echo|fidelity]
 *
 * Plain ESM so it runs on Node 20 without tsx: it registers ts-hooks.mjs (transpiles the server's
 * TypeScript with the repo's `typescript`) and then imports index.ts. Prints one line
 * `grove-mock listening {"url":…,"anthropicBaseUrl":…,"openaiBaseUrl":…}` once ready; stops on SIGINT/SIGTERM.
 * Drive it over HTTP: POST /__mock/enqueue, GET /__mock/requests, POST /__mock/reset, POST /__mock/config.
 */
import { register } from "node:module";

register("./ts-hooks.mjs", import.meta.url);

const USAGE =
  "usage: node e2e/mock-server/cli.mjs [--port N] [--host H] [--strict] [--api-key KEY] [--chunk-delay-ms N] [--no-validate] [--unscripted echo|fidelity]";

function parseArgs(argv) {
  const options = { port: 4599, host: "127.0.0.1", config: {} };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    const number = () => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 0) throw new Error(`${arg} needs a non-negative integer`);
      return n;
    };
    if (arg === "--port") options.port = number();
    else if (arg === "--host") options.host = value();
    else if (arg === "--strict") options.config.strict = true;
    else if (arg === "--api-key") options.config.apiKey = value();
    else if (arg === "--chunk-delay-ms") options.config.chunkDelayMs = number();
    else if (arg === "--no-validate") options.config.validate = false;
    else if (arg === "--unscripted") {
      const v = value();
      if (v !== "echo" && v !== "fidelity") throw new Error(`--unscripted is echo or fidelity, not ${v}`);
      options.config.unscripted = v;
    } else if (arg === "--help" || arg === "-h") {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}`);
  }
  return options;
}

let options;
try {
  options = parseArgs(process.argv.slice(2));
} catch (error) {
  console.error(`${error.message}\n${USAGE}`);
  process.exit(2);
}

const { startMockServer } = await import("./index.ts");
const server = await startMockServer(options);
console.log(
  `grove-mock listening ${JSON.stringify({
    url: server.url,
    anthropicBaseUrl: server.anthropicBaseUrl,
    openaiBaseUrl: server.openaiBaseUrl,
  })}`,
);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
