import { useState } from "react";
import type { Session } from "../../core/session/entries";
import { chooseOtherModel, decode, encode, modelIdsFor, useListedModels } from "../../state/models/model-choice";
import { useNewChatSetup } from "../../state/sessions/chat-setup";
import { chooseModel } from "../../state/sessions/sessions";
import { useSettingsStore } from "../../state/settings/settings-store";
import { SlidersIcon } from "../common/icons";
import { DeprecationNote } from "./DeprecationNote";
import { ModelSettingsDialog } from "./lazy-chat";

const OTHER = "__other__";
/** `loading`: the open chat is still being read; a choice made then would go to the default model only. */
export function ModelPicker({ session, loading }: { session: Session | undefined; loading: boolean }) {
  const settings = useSettingsStore((s) => s.settings);
  const current = session?.model ?? settings.defaultModel;
  const listed = useListedModels(settings.providers);
  const [otherFor, setOtherFor] = useState<string | null>(null);
  const [otherText, setOtherText] = useState("");
  const [settingsOpen, setSettingsOpen] = useState(false);
  const setupParams = useNewChatSetup((s) => s.params);
  const hasParams = (session ? session.params : setupParams) !== undefined;

  const groups = settings.providers.map((p) => {
    const ids = modelIdsFor(p, listed[p.id] ?? []);
    if (p.id === current.providerId && !ids.includes(current.modelId)) ids.unshift(current.modelId);
    return { provider: p, ids };
  });

  const submitOther = () => {
    const id = otherText.trim();
    const provider = settings.providers.find((p) => p.id === otherFor);
    if (!id || !provider) return;
    chooseOtherModel(session?.id ?? null, provider, id);
    setOtherFor(null);
    setOtherText("");
  };

  return (
    <div className="model-picker">
      <select
        aria-label="Model"
        disabled={loading}
        value={encode(current)}
        onChange={(e) => {
          const v = e.target.value;
          if (v.startsWith(OTHER)) {
            setOtherFor(v.slice(OTHER.length + 2));
            return;
          }
          const ref = decode(v);
          if (ref) void chooseModel(session?.id ?? null, ref);
        }}
      >
        {groups.map(({ provider, ids }) => (
          <optgroup
            key={provider.id}
            label={provider.builtIn && !provider.apiKey ? `${provider.name} (no key)` : provider.name}
          >
            {ids.map((id) => (
              <option key={id} value={encode({ providerId: provider.id, modelId: id })}>
                {id}
              </option>
            ))}
            <option value={`${OTHER}::${provider.id}`}>Other {provider.name} model id…</option>
          </optgroup>
        ))}
      </select>
      <button
        type="button"
        className={hasParams ? "chip active" : "chip"}
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
