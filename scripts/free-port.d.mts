/** Types for free-port.mjs (plain JavaScript so Node runs it without a build step). */
export declare function freePort(): Promise<number>;
