/** Types for entry-size.mjs (plain JavaScript, so Node runs it without a build step). */
export type FirstScreenFile = { file: string; raw: number; gzip: number };

export declare function entrySize(outDir: string): {
  files: FirstScreenFile[];
  raw: number;
  gzip: number;
  jsGzip: number;
};
