import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { PreviewMessage } from "../../preview-page";
import { PREVIEW_PAGE_PATH } from "../../security-headers";
import { isDarkTheme } from "../theme";
import {
  buildSrcdoc,
  figureFrameHeight,
  PREVIEW_SANDBOX,
  PREVIEW_SANDBOX_INERT,
  type PreviewKind,
  svgIntrinsicSize,
} from "./preview";

type Rendered =
  | { state: "loading" }
  | { state: "ready"; srcdoc: string; figure: string | undefined }
  | { state: "failed"; message: string };

let mermaidIds = 0;

/**
 * Mermaid source → SVG markup. Mermaid lays out in this page, so labels are plain SVG text
 * (`htmlLabels: false`: no HTML box of the model's markup ever enters the page), with its strict
 * security level (labels cleaned, no click handlers); its output is then sanitized (sanitize-svg.ts)
 * and shown inside the same sandboxed, network-less iframe as any preview. The library (large) is
 * imported only when a Mermaid preview is opened.
 */
async function renderMermaid(source: string): Promise<string> {
  const [{ default: mermaid }, { sanitizeSvg }] = await Promise.all([import("mermaid"), import("./sanitize-svg")]);
  const dark = isDarkTheme();
  mermaid.initialize({
    startOnLoad: false,
    securityLevel: "strict",
    htmlLabels: false,
    flowchart: { htmlLabels: false },
    theme: dark ? "dark" : "default",
  });
  mermaidIds += 1;
  const id = `grove-mermaid-${mermaidIds}`;
  try {
    const { svg } = await mermaid.render(id, source);
    return sanitizeSvg(svg);
  } finally {
    // On a syntax error Mermaid can leave its scratch element (and error drawing) in the page.
    document.getElementById(`d${id}`)?.remove();
  }
}

/**
 * The preview of one code block: a sandboxed iframe (see preview.ts for why nothing in it can
 * reach the app's data or the network). Nothing can report its height out of the sandbox, so a
 * figure's frame is sized from the SVG's declared size and an HTML page gets a bounded default;
 * the user can drag either taller.
 */
export function CodePreview({ kind, text, scripts }: { kind: PreviewKind; text: string; scripts: boolean }) {
  const [rendered, setRendered] = useState<Rendered>(() =>
    kind === "mermaid"
      ? { state: "loading" }
      : { state: "ready", srcdoc: buildSrcdoc(kind, text), figure: kind === "svg" ? text : undefined },
  );

  useEffect(() => {
    if (kind !== "mermaid") {
      setRendered({ state: "ready", srcdoc: buildSrcdoc(kind, text), figure: kind === "svg" ? text : undefined });
      return;
    }
    let live = true;
    setRendered({ state: "loading" });
    renderMermaid(text).then(
      (svg) => live && setRendered({ state: "ready", srcdoc: buildSrcdoc("mermaid", svg), figure: svg }),
      (error: unknown) =>
        live && setRendered({ state: "failed", message: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
  }, [kind, text]);

  const box = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState<number | undefined>(undefined);
  const figure = rendered.state === "ready" ? rendered.figure : undefined;
  useLayoutEffect(() => {
    const size = figure === undefined ? undefined : svgIntrinsicSize(figure);
    setHeight(size && box.current ? figureFrameHeight(size, box.current.clientWidth) : undefined);
  }, [figure]);

  if (rendered.state === "loading") return <p className="md-preview-status">Rendering diagram…</p>;
  if (rendered.state === "failed") {
    return (
      <p className="md-preview-status" role="alert">
        Could not render the diagram: {rendered.message}
      </p>
    );
  }
  return (
    <div className="md-preview" ref={box} style={height === undefined ? undefined : { height }}>
      {scripts ? <PreviewFrame document={rendered.srcdoc} /> : <InertFrame document={rendered.srcdoc} />}
    </div>
  );
}

/**
 * A preview with no script at all: the document as `srcdoc` under an empty sandbox (no scripts, an
 * opaque origin, no forms, popups or navigation). It also inherits the app's own policy.
 */
function InertFrame({ document }: { document: string }) {
  return <iframe title="Preview" sandbox={PREVIEW_SANDBOX_INERT} srcDoc={document} referrerPolicy="no-referrer" />;
}

/**
 * The app's preview page in a sandboxed frame where scripts run (the user chose "Run scripts"); once it has loaded (its bootstrap script is
 * listening), the document is posted to it. The frame's origin is opaque ("null"), so the target
 * origin can only be "*": the document is what this message already shows, nothing secret. A new
 * document remounts the frame (keyed), never writes into a page the last one may have changed.
 */
function PreviewFrame({ document }: { document: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  // `load` fires again when the written document finishes: post only for the page's own load.
  const posted = useRef(false);
  const post = () => {
    if (posted.current) return;
    posted.current = true;
    const message: PreviewMessage = { type: "grove-preview", document };
    frame.current?.contentWindow?.postMessage(message, "*");
  };
  return (
    <iframe
      key={document}
      ref={frame}
      title="Preview"
      sandbox={PREVIEW_SANDBOX}
      src={PREVIEW_PAGE_PATH}
      referrerPolicy="no-referrer"
      onLoad={post}
    />
  );
}
