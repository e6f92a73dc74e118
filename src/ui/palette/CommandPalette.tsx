import { type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from "react";
import { importableApps } from "../../core/export/importable-formats";
import { useUiStore } from "../../state/app/ui-store";
import { openCompactDialog } from "../../state/dialogs/compact-dialog";
import { openHandoffDialog } from "../../state/dialogs/handoff-dialog";
import { useMaintenanceStore } from "../../state/maintenance/maintenance-store";
import { encode, modelIdsFor, useListedModels } from "../../state/models/model-choice";
import { useStreamStore } from "../../state/reply/stream-store";
import { chooseModel, newChat, renameSession } from "../../state/sessions/sessions";
import { useSettingsStore } from "../../state/settings/settings-store";
import { exportAllSessions, exportSession } from "../../state/transfer/export";
import { saveFile } from "../common/save-file";
import { CHAT_SEARCH_ID } from "../dom-ids";
import type { SessionView } from "../hooks";
import { saveThemeChoice } from "../theme";
import { filterPalette } from "./palette-filter";
import { pickFilesToImport } from "./pick-import";
import { SHORTCUTS, shortcutLabel } from "./shortcuts";
import { usePaletteChats } from "./use-palette-chats";
import "./palette.css";

type Command = {
  readonly id: string;
  readonly label: string;
  readonly keywords?: readonly string[];
  /** Shown on the right ("Ctrl+Shift+O"). */
  readonly shortcut?: string;
  /** Why it cannot run now; undefined when it can. */
  readonly unavailable?: string;
  /** What it does, when the label alone does not say. */
  readonly hint?: string;
  /** Runs after the palette has closed (focus is back where it was). */
  readonly run: () => void;
  /** Keeps the palette open (a command that opens a sub-list). */
  readonly stay?: boolean;
};

type Mode = "commands" | "models" | "rename";

const INPUT_LABEL: Record<Mode, string> = {
  commands: "Type a command",
  models: "Choose a model",
  rename: "New name for this chat",
};
const PLACEHOLDER: Record<Mode, string> = {
  commands: "Type a command or a chat's words…",
  models: "Choose a model… (Backspace: back)",
  rename: "New name for this chat… (Esc: cancel)",
};

/**
 * The command palette's dialog (opened by Ctrl+K / ⌘K: CommandPaletteKeys.tsx): every main action
 * by name, filtered as you type, and under "Chats" the chats whose title or messages hold the words
 * typed; arrows and Enter run one, with the app's other global shortcuts (shortcuts.ts) listed next
 * to their commands.
 */
export function PaletteDialog({
  view,
  onShowSessions,
  onClose,
}: {
  view: SessionView;
  onShowSessions: () => void;
  onClose: () => void;
}) {
  const [mode, setMode] = useState<Mode>("commands");
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const opener = useRef<HTMLElement | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  const enter = (next: Mode, text = "") => {
    setMode(next);
    setQuery(text);
    setActive(0);
  };
  const commands = useCommands(view, onShowSessions, enter);
  const models = useModelCommands(view, mode === "models");
  const chats: readonly Command[] = usePaletteChats(query, mode === "commands");
  const shown =
    mode === "rename" ? renameCommands(view, query) : filterPalette(mode === "commands" ? commands : models, query);
  // One list for the arrows: the commands, then the chats.
  const all = [...shown, ...chats];
  const current = all[Math.min(active, all.length - 1)];

  useEffect(() => {
    opener.current = document.activeElement as HTMLElement | null;
    inputRef.current?.focus();
  }, []);

  const close = () => {
    opener.current?.focus?.();
    onClose();
  };
  const runCommand = (cmd: Command | undefined) => {
    if (!cmd || cmd.unavailable) return;
    if (cmd.stay) {
      cmd.run();
      inputRef.current?.focus();
      return;
    }
    close();
    cmd.run();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const n = all.length;
      if (n > 0) setActive((a) => (Math.min(a, n - 1) + (e.key === "ArrowDown" ? 1 : n - 1)) % n);
    } else if (e.key === "Enter") {
      e.preventDefault();
      runCommand(current);
    } else if (e.key === "Backspace" && query === "" && mode !== "commands") {
      enter("commands");
    }
  };
  const optionId = (cmd: Command) => `${listId}-${cmd.id}`;

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a backdrop click is a mouse shortcut; keyboards have Esc
    <div
      className="scrim palette-scrim"
      role="presentation"
      onMouseDown={(e) => e.target === e.currentTarget && close()}
    >
      <div className="palette" role="dialog" aria-modal="true" aria-label="Command palette">
        <input
          ref={inputRef}
          className="palette-input"
          role="combobox"
          aria-label={INPUT_LABEL[mode]}
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={current ? optionId(current) : undefined}
          placeholder={PLACEHOLDER[mode]}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <div id={listId} role="listbox" aria-label={LIST_LABEL[mode]} className="palette-list">
          {[
            { name: mode === "models" ? "Models" : "Commands", commands: shown },
            { name: "Chats", commands: chats, headingId: `${listId}-chats` },
          ].map(
            (group) =>
              group.commands.length > 0 && (
                <PaletteGroup key={group.name} {...group}>
                  {(cmd) => (
                    <PaletteOption
                      key={cmd.id}
                      id={optionId(cmd)}
                      cmd={cmd}
                      active={cmd === current}
                      onPoint={() => setActive(all.indexOf(cmd))}
                      onRun={() => runCommand(cmd)}
                    />
                  )}
                </PaletteGroup>
              ),
          )}
          {all.length === 0 && (
            <p className="palette-empty muted">
              {mode === "commands" && query.trim().length > 1 ? "No command or chat matches." : "No command matches."}
            </p>
          )}
        </div>
        <p className="palette-foot muted small">
          ↑ ↓ to move · Enter to run · Esc to close · {shortcutLabel(SHORTCUTS.palette)} opens this anywhere
        </p>
      </div>
    </div>
  );
}

const LIST_LABEL: Record<Mode, string> = { commands: "Commands and chats", models: "Models", rename: "Rename" };

/**
 * A group of options in the listbox. With `headingId` its name is a visible heading ("Chats"); without,
 * only its accessible name (the commands and models need no heading above them).
 */
function PaletteGroup({
  name,
  headingId,
  commands,
  children,
}: {
  name: string;
  headingId?: string;
  commands: readonly Command[];
  children: (cmd: Command) => ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of options inside role=listbox (WAI-ARIA listbox pattern)
    <div role="group" {...(headingId ? { "aria-labelledby": headingId } : { "aria-label": name })}>
      {headingId && (
        <div id={headingId} className="palette-group-heading">
          {name}
        </div>
      )}
      {commands.map(children)}
    </div>
  );
}

/** One option of the list (combobox pattern: focus stays in the input, aria-activedescendant points here). */
function PaletteOption({
  id,
  cmd,
  active,
  onPoint,
  onRun,
}: {
  id: string;
  cmd: Command;
  active: boolean;
  onPoint: () => void;
  onRun: () => void;
}) {
  return (
    // biome-ignore lint/a11y/useFocusableInteractive: combobox pattern: focus stays in the input, aria-activedescendant points here
    // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard runs options from the input (arrows, Enter)
    <div
      id={id}
      role="option"
      aria-selected={active}
      aria-disabled={cmd.unavailable ? true : undefined}
      className={`palette-option${active ? " active" : ""}`}
      title={cmd.unavailable}
      onMouseMove={onPoint}
      onMouseDown={(e) => e.preventDefault()}
      onClick={onRun}
    >
      <span className="palette-label">
        {cmd.label}
        {(cmd.unavailable ?? cmd.hint) && <span className="palette-hint">{cmd.unavailable ?? cmd.hint}</span>}
      </span>
      {cmd.shortcut && <kbd className="palette-kbd">{cmd.shortcut}</kbd>}
    </div>
  );
}

/** In "rename" mode: the one command, renaming the open chat to what was typed. */
function renameCommands(view: SessionView, query: string): Command[] {
  const session = view.session;
  const title = query.trim();
  return [
    {
      id: "rename-to",
      label: title ? `Rename to “${title}”` : "Type the new name",
      unavailable: !session ? "Open a chat first" : title ? undefined : "The name cannot be empty",
      run: () => session && void renameSession(session.id, title),
    },
  ];
}

function useCommands(
  view: SessionView,
  onShowSessions: () => void,
  enter: (mode: Mode, text?: string) => void,
): Command[] {
  const graphOpen = useUiStore((s) => s.graphOpen);
  const sessionId = view.session?.id;
  const replying = useStreamStore((s) => (sessionId ? sessionId in s.replies : false));
  const maintenance = useMaintenanceStore((s) => s.op !== null);
  const wait = !sessionId
    ? "Open a chat first"
    : replying
      ? "Wait for the reply to finish"
      : maintenance
        ? "Wait for the running compaction to finish"
        : view.path.length === 0
          ? "Send a message first"
          : undefined;
  return [
    {
      id: "new",
      label: "New chat",
      keywords: ["start", "conversation"],
      shortcut: shortcutLabel(SHORTCUTS.newChat),
      run: newChat,
    },
    {
      id: "search",
      label: "Search chats",
      keywords: ["find", "sessions", "history"],
      run: () => {
        onShowSessions();
        document.getElementById(CHAT_SEARCH_ID)?.focus();
      },
    },
    {
      id: "model",
      label: "Switch model…",
      keywords: ["change", "claude", "gpt", "provider"],
      hint: "Choose the model for this chat",
      stay: true,
      run: () => enter("models"),
    },
    {
      id: "rename",
      label: "Rename chat…",
      keywords: ["title", "name"],
      unavailable: sessionId ? undefined : "Open a chat first",
      stay: true,
      run: () => enter("rename", view.session?.title ?? ""),
    },
    ...EXPORTS.map(
      ({ format, name }): Command => ({
        id: `export-${format}`,
        label: `Export chat as ${name}`,
        keywords: ["download", "save", "file"],
        unavailable: sessionId ? undefined : "Open a chat first",
        run: () => sessionId && void exportSession(sessionId, format).then((file) => file && saveFile(file)),
      }),
    ),
    {
      id: "export-all",
      label: "Export all chats",
      keywords: ["download", "backup", "zip"],
      run: () => void exportAllSessions().then((file) => file && saveFile(file)),
    },
    {
      id: "import",
      label: "Import chats…",
      keywords: ["open", "file", "upload", "restore"],
      hint: `Chats saved from ${importableApps()}`,
      run: pickFilesToImport,
    },
    ...THEMES.map(
      ({ choice, label }): Command => ({
        id: `theme-${choice}`,
        label,
        keywords: ["theme", "appearance", "colors", "mode"],
        run: () => saveThemeChoice(choice),
      }),
    ),
    {
      id: "compact",
      label: "Compact",
      keywords: ["summarize", "context", "free"],
      hint: "Summarize the earlier part of this chat to free context space",
      unavailable: wait,
      run: () => sessionId && openCompactDialog(sessionId),
    },
    {
      id: "handoff",
      label: "Handoff",
      keywords: ["new session", "continue", "document"],
      hint: "Continue in a new chat that starts from a handoff document",
      unavailable: wait,
      run: () => sessionId && openHandoffDialog(sessionId),
    },
    {
      id: "graph",
      label: graphOpen ? "Hide history graph" : "Show history graph",
      keywords: ["toggle", "tree", "branches"],
      run: () => useUiStore.setState((s) => ({ graphOpen: !s.graphOpen })),
    },
    {
      id: "settings",
      label: "Settings",
      keywords: ["preferences", "api key", "theme", "providers"],
      shortcut: shortcutLabel(SHORTCUTS.settings),
      run: () => useUiStore.setState({ settingsOpen: true }),
    },
  ];
}

/** One command per model the configured providers offer (the Model box's list); only read in "models" mode. */
function useModelCommands(view: SessionView, active: boolean): Command[] {
  const settings = useSettingsStore((s) => s.settings);
  const listed = useListedModels(active ? settings.providers : NO_PROVIDERS);
  const current = view.session?.model ?? settings.defaultModel;
  const sessionId = view.session?.id ?? null;
  return useMemo(() => {
    if (!active) return [];
    return settings.providers.flatMap((p) =>
      modelIdsFor(p, listed[p.id] ?? []).map((modelId) => {
        const ref = { providerId: p.id, modelId };
        const isCurrent = encode(ref) === encode(current);
        return {
          id: `model-${encode(ref)}`,
          label: modelId,
          keywords: [p.name],
          hint: `${p.name}${isCurrent ? " · in use" : ""}${p.builtIn && !p.apiKey ? " · no key yet" : ""}`,
          run: () => void chooseModel(sessionId, ref),
        };
      }),
    );
  }, [active, settings.providers, listed, current, sessionId]);
}

const NO_PROVIDERS: never[] = [];

const EXPORTS = [
  { format: "grove-json", name: "Grove JSON" },
  { format: "markdown", name: "Markdown" },
] as const;

const THEMES = [
  { choice: "dark", label: "Dark theme" },
  { choice: "light", label: "Light theme" },
  { choice: "system", label: "Theme as the system" },
] as const;
