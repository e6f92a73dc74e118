import { useEffect, useState } from "react";
import { buildSrcdoc, PREVIEW_SANDBOX, type PreviewKind } from "./preview";

type Rendered = { state: "loading" } | { state: "ready"; srcdoc: string } | { state: "failed"; message: string };

let mermaidIds = 0;

/**
 * Mermaid source → SVG markup, in this page. The library (large) is imported only when a Mermaid
 * preview is opened. `securityLevel: "strict"` makes Mermaid sanitize labels and drop click
 * handlers; the SVG is then shown inside the same sandboxed, network-less iframe as any preview.
 */
async function renderMermaid(source: string): Promise<string> {
  const { default: mermaid } = await import("mermaid");
  const dark = window.matchMedia?.("(prefers-color-scheme: dark)").matches ?? false;
  mermaid.initialize({ startOnLoad: false, securityLevel: "strict", theme: dark ? "dark" : "default" });
  mermaidIds += 1;
  const { svg } = await mermaid.render(`grove-mermaid-${mermaidIds}`, source);
  return svg;
}

/**
 * The preview of one code block: a sandboxed iframe (see preview.ts for why nothing in it can
 * reach the app's data or the network). A script cannot report its height out of the sandbox,
 * so the frame has a fixed, user-resizable height.
 */
export function CodePreview({ kind, text }: { kind: PreviewKind; text: string }) {
  const [rendered, setRendered] = useState<Rendered>(() =>
    kind === "mermaid" ? { state: "loading" } : { state: "ready", srcdoc: buildSrcdoc(kind, text) },
  );

  useEffect(() => {
    if (kind !== "mermaid") {
      setRendered({ state: "ready", srcdoc: buildSrcdoc(kind, text) });
      return;
    }
    let live = true;
    setRendered({ state: "loading" });
    renderMermaid(text).then(
      (svg) => live && setRendered({ state: "ready", srcdoc: buildSrcdoc("mermaid", svg) }),
      (error: unknown) =>
        live && setRendered({ state: "failed", message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
  }, [kind, text]);

  if (rendered.state === "loading") return <p className="md-preview-status">Rendering diagram…</p>;
  if (rendered.state === "failed") {
    return (
      <p className="md-preview-status" role="alert">
        Could not render the diagram: {rendered.message}
      </p>
    );
  }
  return (
    <div className="md-preview">
      <iframe title="Preview" sandbox={PREVIEW_SANDBOX} srcDoc={rendered.srcdoc} referrerPolicy="no-referrer" />
    </div>
  );
}
