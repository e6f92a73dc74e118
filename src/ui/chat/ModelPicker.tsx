import { type KeyboardEvent, useEffect, useId, useState } from "react";
import type { Session } from "../../core/session/entries";
import { useUiStore } from "../../state/app/ui-store";
import { chooseOtherModel, encode, modelIdsFor, useListedModels } from "../../state/models/model-choice";
import { useNewChatSetup } from "../../state/sessions/chat-setup";
import { chooseModel } from "../../state/sessions/sessions";
import { useSettingsStore } from "../../state/settings/settings-store";
import { SlidersIcon } from "../common/icons";
import { DeprecationNote } from "./DeprecationNote";
import { ModelSettingsDialog } from "./lazy-chat";
import { filterModelGroups, type ModelOption, modelDetail, modelGroups, modelLabel } from "./model-options";

/**
 * The chat's model: a searchable combobox "Model" (WAI-ARIA combobox with a listbox popup). Closed,
 * it reads the model's friendly name; typing filters the list (name, id, provider), arrows move,
 * Enter chooses, Esc closes. Providers with a key come first; each model says its context size and
 * price. `loading`: the open chat is still being read; a choice made then would go to the default
 * model only.
 */
export function ModelPicker({ session, loading }: { session: Session | undefined; loading: boolean }) {
  const settings = useSettingsStore((s) => s.settings);
  const current = session?.model ?? settings.defaultModel;
  const [open, setOpen] = useState(false);
  const listed = useListedModels(settings.providers);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const [otherFor, setOtherFor] = useState<string | null>(null);
  const [otherText, setOtherText] = useState("");
  const settingsOpen = useUiStore((s) => s.modelOptionsOpen);
  const setSettingsOpen = (open: boolean) => useUiStore.setState({ modelOptionsOpen: open });
  const setupParams = useNewChatSetup((s) => s.params);
  const hasParams = (session ? session.params : setupParams) !== undefined;
  const listId = useId();

  const groups = open
    ? filterModelGroups(
        modelGroups(settings.providers, (p) => modelIdsFor(p, listed[p.id] ?? []), current),
        query,
      )
    : [];
  const flat = groups.flatMap((g) => g.options);
  const currentValue = encode(current);
  const shown =
    active < 0 ? (flat.find((o) => o.value === currentValue) ?? flat[0]) : flat[Math.min(active, flat.length - 1)];
  const shownId = shown ? `${listId}-${shown.value}` : undefined;
  useEffect(() => {
    if (open && shownId) document.getElementById(shownId)?.scrollIntoView({ block: "nearest" });
  }, [open, shownId]);
  const optionId = (o: ModelOption) => `${listId}-${o.value}`;

  const close = () => {
    setOpen(false);
    setQuery("");
    setActive(0);
  };
  const choose = (o: ModelOption | undefined) => {
    if (!o) return;
    close();
    if (o.kind === "other") setOtherFor(o.providerId);
    else void chooseModel(session?.id ?? null, o.ref);
  };
  // The list opens on the model in use (found once it renders: `active` -1 means "the current one").
  const openAt = () => {
    setOpen(true);
    setActive(-1);
  };
  const submitOther = () => {
    const id = otherText.trim();
    const provider = settings.providers.find((p) => p.id === otherFor);
    if (!id || !provider) return;
    chooseOtherModel(session?.id ?? null, provider, id);
    setOtherFor(null);
    setOtherText("");
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      if (!open) return openAt();
      const n = flat.length;
      const from = shown ? flat.indexOf(shown) : 0;
      if (n > 0) setActive((from + (e.key === "ArrowDown" ? 1 : n - 1)) % n);
    } else if (e.key === "Enter" && open) {
      e.preventDefault();
      choose(shown);
    } else if (e.key === "Escape" && open) {
      // Only the list closes (not a dialog, not the reply: Esc stops a reply elsewhere).
      e.preventDefault();
      e.stopPropagation();
      close();
    }
  };

  return (
    <div className="model-picker">
      <div className="model-combo">
        <input
          role="combobox"
          aria-label="Model"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && shown ? optionId(shown) : undefined}
          data-model={encode(current)}
          title={modelDetail(current.modelId)}
          disabled={loading}
          autoComplete="off"
          spellCheck={false}
          value={open ? query : modelLabel(current.modelId)}
          placeholder={modelLabel(current.modelId)}
          onFocus={(e) => e.currentTarget.select()}
          onClick={() => !open && openAt()}
          onBlur={close}
          onChange={(e) => {
            setOpen(true);
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        {open && (
          <div id={listId} role="listbox" aria-label="Models" className="model-list">
            {groups.map((g) => (
              // biome-ignore lint/a11y/useSemanticElements: a group of options inside role=listbox (WAI-ARIA listbox pattern)
              <div key={g.providerId} role="group" aria-label={g.name}>
                <div className="model-list-heading" aria-hidden="true">
                  {g.name}
                </div>
                {g.options.map((o) => (
                  // biome-ignore lint/a11y/useFocusableInteractive: combobox pattern: focus stays in the input, aria-activedescendant points here
                  // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard chooses from the input (arrows, Enter)
                  <div
                    key={o.value}
                    id={optionId(o)}
                    data-value={o.value}
                    role="option"
                    aria-selected={o === shown}
                    aria-current={o.kind === "model" && o.value === encode(current) ? true : undefined}
                    className={`model-option${o === shown ? " active" : ""}`}
                    onMouseMove={() => setActive(flat.indexOf(o))}
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => choose(o)}
                  >
                    <span className="model-option-label">{o.label}</span>
                    <span className="model-option-detail">{o.detail}</span>
                  </div>
                ))}
              </div>
            ))}
            {flat.length === 0 && <p className="model-list-empty muted small">No model matches.</p>}
          </div>
        )}
      </div>
      <button
        type="button"
        className={hasParams ? "chip model-options active" : "chip model-options"}
        disabled={loading}
        title="Temperature, output limit and thinking for this chat"
        onClick={() => setSettingsOpen(true)}
      >
        {/* On a phone the icon shows and the words are read out only (chat-header.css). */}
        <SlidersIcon />
        <span className="chip-label">Model options</span>
      </button>
      <DeprecationNote modelId={current.modelId} short />
      {settingsOpen && <ModelSettingsDialog session={session} onClose={() => setSettingsOpen(false)} />}
      {otherFor && (
        <form
          className="other-model"
          onSubmit={(e) => {
            e.preventDefault();
            submitOther();
          }}
        >
          <input
            aria-label="Model id"
            placeholder="any model id"
            autoFocus
            value={otherText}
            onChange={(e) => setOtherText(e.target.value)}
            onKeyDown={(e) => e.key === "Escape" && setOtherFor(null)}
          />
          <button type="submit">Use</button>
        </form>
      )}
    </div>
  );
}
