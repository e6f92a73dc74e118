/** Types for keep-idle-connections.mjs (plain JavaScript so Node runs it without a build step). */
import type { Server } from "node:http";

export declare function keepIdleConnections(server: Server): void;
