/**
 * The words the history graph shows for an entry: its kind (its title is `entryTitle`, in
 * core/session/entry-text.ts, where the text search looks through lives too). Pure: no I/O.
 */

import type { Entry } from "../session/entries";

export type GraphNodeKind =
  | "user"
  | "assistant"
  | "tool"
  | "compaction"
  | "branch_summary"
  | "handoff"
  | "setting"
  | "extension_data"
  | "note"
  | "command"
  | "run";

/** What a node is called, first in its accessible name ("User message · …"). */
export const KIND_NAME: Readonly<Record<GraphNodeKind, string>> = {
  user: "User message",
  assistant: "Assistant message",
  tool: "Tool result",
  compaction: "Compaction",
  branch_summary: "Branch summary",
  handoff: "Handoff",
  run: "Collapsed run",
  setting: "Setting change",
  extension_data: "Extension data",
  note: "Context note",
  command: "Command",
};

export function kindOf(entry: Entry): Exclude<GraphNodeKind, "run"> {
  switch (entry.type) {
    case "message":
      return entry.role;
    case "compaction":
    case "branch_summary":
    case "handoff":
      return entry.type;
    case "model_change":
    case "thinking_level_change":
      return "setting";
    case "custom":
      return "extension_data";
    case "context_note":
      return "note";
    case "command":
      return "command";
  }
}
