import { deprecationOf } from "../../core/tokens/models";
// Its style (and the model-settings rules Settings › Models shares) sits in chat-setup.css, which
// must load with the header, not with the dialogs that are chunks of their own.
import "./chat-setup.css";

/** Today as YYYY-MM-DD (UTC), the form the registry's end-of-life dates use. */
const today = () => new Date().toISOString().slice(0, 10);

/**
 * "Deprecated: stops working on …" for a model whose provider announced its end of life. `short`:
 * the header's form (the full sentence is its tooltip and accessible description).
 */
export function DeprecationNote({ modelId, short = false }: { modelId: string; short?: boolean }) {
  const d = deprecationOf(modelId, today());
  if (!d) return null;
  const full = d.retired
    ? `${modelId} was retired on ${d.retiresOn}: requests to it will fail. Pick a current model.`
    : `${modelId} is deprecated and stops working on ${d.retiresOn}. Pick a current model.`;
  if (!short)
    return (
      <p className="badge warn deprecation" role="note">
        {full}
      </p>
    );
  return (
    <span className="badge warn deprecation" role="note" title={full}>
      {/* Where the header is narrow the date goes, and on a phone the word too (a "!" is left): the
          tooltip and the description keep the whole sentence. */}
      <span className="deprecation-mark" aria-hidden="true">
        !
      </span>
      <span className="deprecation-word">{d.retired ? "Retired" : "Deprecated"}</span>
      <span className="deprecation-when">{d.retired ? ` ${d.retiresOn}` : `: ends ${d.retiresOn}`}</span>
      <span className="sr-only">. {full}</span>
    </span>
  );
}
