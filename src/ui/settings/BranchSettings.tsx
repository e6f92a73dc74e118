import { useId } from "react";
import { saveSettings } from "../../state/settings/settings-actions";
import type { AutoStrategy, SwitchSummaryDefault } from "../../state/settings/settings-model";
import { useSettingsStore } from "../../state/settings/settings-store";
import { SettingsSection } from "./SettingsSection";

const SWITCH_OPTIONS: readonly { value: SwitchSummaryDefault; label: string }[] = [
  { value: "ask", label: "Ask" },
  { value: "none", label: "No summary" },
  { value: "summarize", label: "Summarize" },
];

const STRATEGY_OPTIONS: readonly { value: AutoStrategy; label: string }[] = [
  { value: "compact", label: "Compact in place" },
  { value: "handoff", label: "Hand off to a new session" },
];

const BRANCH_TERMS = [
  "Summary when switching branches",
  "Switch here",
  "Rewind",
  "When the context is full",
  "handoff",
  "branch",
];

const isSwitchDefault = (v: string): v is SwitchSummaryDefault => SWITCH_OPTIONS.some((o) => o.value === v);
const isStrategy = (v: string): v is AutoStrategy => STRATEGY_OPTIONS.some((o) => o.value === v);

/**
 * Settings › Branches and handoff (DESIGN §5): what Rewind / Switch here does with the branch being left
 * (the switch dialog's "Remember my choice" sets it), and what happens when a chat reaches the
 * automatic threshold.
 */
export function BranchSettings() {
  const settings = useSettingsStore((s) => s.settings);
  const switchId = useId();
  const strategyId = useId();
  return (
    <SettingsSection name="Branching" terms={BRANCH_TERMS}>
      <div className="field">
        <label htmlFor={switchId}>Summary when switching branches</label>
        <select
          id={switchId}
          value={settings.switchSummaryDefault}
          onChange={(e) => {
            if (isSwitchDefault(e.target.value)) void saveSettings({ switchSummaryDefault: e.target.value });
          }}
        >
          {SWITCH_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <small className="muted">
          Whether Rewind (and Switch here in the graph) leaves a summary of the part you leave. Ask shows the Rewind
          dialog.
        </small>
      </div>
      <div className="field">
        <label htmlFor={strategyId}>When the context is full</label>
        <select
          id={strategyId}
          value={settings.autoStrategy}
          onChange={(e) => {
            if (isStrategy(e.target.value)) void saveSettings({ autoStrategy: e.target.value });
          }}
        >
          {STRATEGY_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <small className="muted">
          At the automatic threshold. Handing off starts a new session from a handoff document and opens it; a request
          the provider rejects as too long is always compacted in place.
        </small>
      </div>
    </SettingsSection>
  );
}
