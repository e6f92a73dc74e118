/**
 * Node module hooks that let plain `node` (20.x, which has no type stripping) import this directory's
 * TypeScript: `.ts` files are transpiled with the repo's own `typescript` package (no type check; tsc does
 * that in CI), and extensionless relative imports from a `.ts` file resolve to `<name>.ts`, matching the
 * repo's `moduleResolution: "Bundler"`. Registered by cli.mjs via `module.register`; nothing else uses it.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const RELATIVE = /^\.{1,2}\//;
const HAS_EXTENSION = /\.[cm]?[jt]sx?$/;

export async function resolve(specifier, context, nextResolve) {
  const fromTs = context.parentURL?.endsWith(".ts") ?? false;
  if (fromTs && RELATIVE.test(specifier) && !HAS_EXTENSION.test(specifier)) {
    return nextResolve(`${specifier}.ts`, context);
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return nextLoad(url, context);
  const fileName = fileURLToPath(url);
  const source = await readFile(fileName, "utf8");
  const { outputText } = ts.transpileModule(source, {
    fileName,
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
      sourceMap: false,
      inlineSourceMap: true,
    },
  });
  return { format: "module", source: outputText, shortCircuit: true };
}
