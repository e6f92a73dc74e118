import { deprecationOf } from "../../core/tokens/models";

/** Today as YYYY-MM-DD (UTC), the form the registry's end-of-life dates use. */
const today = () => new Date().toISOString().slice(0, 10);

/** "Deprecated: retires on …" under a model choice whose provider announced its end of life. */
export function DeprecationNote({ modelId }: { modelId: string }) {
  const d = deprecationOf(modelId, today());
  if (!d) return null;
  return (
    <p className="badge warn deprecation" role="note">
      {d.retired
        ? `${modelId} was retired on ${d.retiresOn}: requests to it will fail. Pick a current model.`
        : `${modelId} is deprecated and stops working on ${d.retiresOn}. Pick a current model.`}
    </p>
  );
}
