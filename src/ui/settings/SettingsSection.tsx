import { createContext, type ReactNode, useContext, useId, useState } from "react";
import { matchesSettingsQuery } from "./settings-search";

/** What the user typed in the settings search (SettingsDialog provides it). */
export const SettingsQuery = createContext("");

/**
 * One section of Settings: a region named by its heading. Hidden (not unmounted: a field keeps
 * what was typed) while the search matches neither its name nor its terms.
 */
export function SettingsSection({
  name,
  terms,
  intro,
  children,
}: {
  name: string;
  /** Labels and key words of its fields, for the search. */
  terms: readonly string[];
  intro?: ReactNode;
  children: ReactNode;
}) {
  const query = useContext(SettingsQuery);
  const headingId = useId();
  return (
    <section
      className="settings-section"
      aria-labelledby={headingId}
      hidden={!matchesSettingsQuery(query, name, terms)}
    >
      <h3 id={headingId}>{name}</h3>
      {intro}
      {children}
    </section>
  );
}

/**
 * The "Advanced" disclosure of a section (the token fields). Closed by default; open while a search
 * matches one of its terms, so a search never finds a field it then hides.
 */
export function Advanced({ terms, children }: { terms: readonly string[]; children: ReactNode }) {
  const query = useContext(SettingsQuery);
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const shown = open || (query.trim() !== "" && matchesSettingsQuery(query, "", terms));
  return (
    <div className="settings-advanced">
      <button
        type="button"
        className="disclosure"
        aria-expanded={shown}
        aria-controls={bodyId}
        onClick={() => setOpen(!shown)}
      >
        <span className="disclosure-mark" aria-hidden="true">
          {shown ? "▾" : "▸"}
        </span>
        Advanced
      </button>
      <div id={bodyId} hidden={!shown}>
        {children}
      </div>
    </div>
  );
}
