/**
 * Every format Grove imports, in one list: the import error messages, the Import button's
 * tooltip, the drop hint and the empty chat's hint are all made from it, so a new importer is
 * named everywhere at once. Kept apart from the importers: the hints are on the first screen.
 */

/** One importable format: what people call the app, and the files to pick, in a phrase naming the app. */
type ImportableFormat = { readonly app: string; readonly inFull: string };

export const IMPORTABLE_FORMATS: readonly ImportableFormat[] = [
  { app: "Grove", inFull: "Grove JSON exports" },
  {
    app: "ChatGPT",
    inFull:
      "a ChatGPT data export (conversations.json, its split conversations-000.json… files, or the export .zip with its images)",
  },
  { app: "Claude.ai", inFull: "a Claude.ai export's conversations.json" },
  { app: "Open WebUI", inFull: "Open WebUI chat exports (.json)" },
  { app: "LibreChat", inFull: "LibreChat conversation exports (.json)" },
  { app: "chatbot-ui", inFull: "chatbot-ui exports (.json)" },
  { app: "pi", inFull: "pi session .jsonl files" },
];

const joined = (items: readonly string[], separator: string, last: string) =>
  items.length < 2 ? items.join("") : `${items.slice(0, -1).join(separator)}${last}${items.at(-1)}`;

/** The formats with their files, for messages: "Grove JSON exports; a ChatGPT data export (…); …; and pi session .jsonl files". */
export const importableFormatsInFull = (): string =>
  joined(
    IMPORTABLE_FORMATS.map((f) => f.inFull),
    "; ",
    "; and ",
  );

/** The apps alone, for short hints: "Grove, ChatGPT, Claude.ai, … or pi". */
export const importableApps = (): string =>
  joined(
    IMPORTABLE_FORMATS.map((f) => f.app),
    ", ",
    " or ",
  );
