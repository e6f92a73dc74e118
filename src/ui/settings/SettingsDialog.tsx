import { useState } from "react";
import { useUiStore } from "../../state/app/ui-store";
import { Dialog } from "../common/Dialog";
import { AppearanceSettings } from "./AppearanceSettings";
import { BranchSettings } from "./BranchSettings";
import { CompactionSettings } from "./CompactionSettings";
import { DataSettings } from "./DataSettings";
import { ModelsSettings } from "./ModelsSettings";
import { ProvidersSettings } from "./ProvidersSettings";
import { SavedStatus } from "./SavedStatus";
import { SettingsQuery } from "./SettingsSection";
import "./settings-sections.css";
import { PromptSettings } from "./PromptSettings";
import { SpendingSettings } from "./SpendingSettings";
import { SyncSettings } from "./SyncSettings";
import { ToolsSettings } from "./ToolsSettings";

/**
 * Settings: a search box, then one region per section. Each section is its own component (a
 * SettingsSection: a region named by its h3, hidden while the search does not match it); add a
 * feature's settings as one more line here.
 */
export function SettingsDialog() {
  const [query, setQuery] = useState("");
  const close = () => useUiStore.setState({ settingsOpen: false });
  return (
    <Dialog title="Settings" onClose={close} wide>
      <div className="settings-top">
        <input
          type="search"
          className="settings-search"
          aria-label="Search settings"
          placeholder="Search settings"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <SavedStatus />
      </div>
      <SettingsQuery.Provider value={query}>
        <ProvidersSettings />
        <ModelsSettings />
        <CompactionSettings />
        <BranchSettings />
        <ToolsSettings />
        <PromptSettings />
        <SpendingSettings />
        <DataSettings />
        <section aria-labelledby="settings-sync-heading">
          <h3 id="settings-sync-heading">Sync</h3>
          <SyncSettings />
        </section>
        <AppearanceSettings />
        <NoMatch query={query} />
      </SettingsQuery.Provider>
    </Dialog>
  );
}

/**
 * Shown while a search runs; CSS hides it as long as one section is still shown (each section
 * decides for itself whether it matches, so only the page knows whether none does).
 */
function NoMatch({ query }: { query: string }) {
  if (query.trim() === "") return null;
  return <p className="settings-no-match muted">No setting matches “{query.trim()}”.</p>;
}
