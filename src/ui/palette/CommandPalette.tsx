import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import { useUiStore } from "../../state/app/ui-store";
import { openCompactDialog } from "../../state/dialogs/compact-dialog";
import { openHandoffDialog } from "../../state/dialogs/handoff-dialog";
import { useMaintenanceStore } from "../../state/maintenance/maintenance-store";
import { encode, modelIdsFor, useListedModels } from "../../state/models/model-choice";
import { useStreamStore } from "../../state/reply/stream-store";
import { chooseModel, newChat } from "../../state/sessions/sessions";
import { useSettingsStore } from "../../state/settings/settings-store";
import { CHAT_SEARCH_ID } from "../dom-ids";
import type { SessionView } from "../hooks";
import { filterPalette } from "./palette-filter";
import { SHORTCUTS, shortcutLabel } from "./shortcuts";
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

/**
 * The command palette's dialog (opened by Ctrl+K / ⌘K: CommandPaletteKeys.tsx): every main action
 * by name, filtered as you type, arrows and Enter to run one, with the app's other global shortcuts
 * (shortcuts.ts) listed next to their commands.
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
  const [mode, setMode] = useState<"commands" | "models">("commands");
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const opener = useRef<HTMLElement | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  const commands = useCommands(view, onShowSessions, () => {
    setMode("models");
    setQuery("");
    setActive(0);
  });
  const models = useModelCommands(view, mode === "models");
  const shown = filterPalette(mode === "commands" ? commands : models, query);
  const current = shown[Math.min(active, shown.length - 1)];

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
      const n = shown.length;
      if (n > 0) setActive((a) => (Math.min(a, n - 1) + (e.key === "ArrowDown" ? 1 : n - 1)) % n);
    } else if (e.key === "Enter") {
      e.preventDefault();
      runCommand(current);
    } else if (e.key === "Backspace" && query === "" && mode === "models") {
      setMode("commands");
      setActive(0);
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
          aria-label={mode === "commands" ? "Type a command" : "Choose a model"}
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={current ? optionId(current) : undefined}
          placeholder={mode === "commands" ? "Type a command…" : "Choose a model… (Backspace: back)"}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <div
          id={listId}
          role="listbox"
          aria-label={mode === "commands" ? "Commands" : "Models"}
          className="palette-list"
        >
          {shown.map((cmd) => (
            // biome-ignore lint/a11y/useFocusableInteractive: combobox pattern: focus stays in the input, aria-activedescendant points here
            // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard runs options from the input (arrows, Enter)
            <div
              key={cmd.id}
              id={optionId(cmd)}
              role="option"
              aria-selected={cmd === current}
              aria-disabled={cmd.unavailable ? true : undefined}
              className={`palette-option${cmd === current ? " active" : ""}`}
              title={cmd.unavailable}
              onMouseMove={() => setActive(shown.indexOf(cmd))}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => runCommand(cmd)}
            >
              <span className="palette-label">
                {cmd.label}
                {(cmd.unavailable ?? cmd.hint) && <span className="palette-hint">{cmd.unavailable ?? cmd.hint}</span>}
              </span>
              {cmd.shortcut && <kbd className="palette-kbd">{cmd.shortcut}</kbd>}
            </div>
          ))}
          {shown.length === 0 && <p className="palette-empty muted">No command matches.</p>}
        </div>
        <p className="palette-foot muted small">
          ↑ ↓ to move · Enter to run · Esc to close · {shortcutLabel(SHORTCUTS.palette)} opens this anywhere
        </p>
      </div>
    </div>
  );
}

function useCommands(view: SessionView, onShowSessions: () => void, toModels: () => void): Command[] {
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
      run: toModels,
    },
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
