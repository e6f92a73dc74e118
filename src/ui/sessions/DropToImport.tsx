import { useEffect, useState } from "react";
import { importableApps } from "../../core/export/importable-formats";
import { importFile } from "../../state/app/lazy";

const carriesFiles = (e: DragEvent) => e.dataTransfer?.types.includes("Files") ?? false;

/**
 * Drop a file anywhere on the window to import it. While a file is dragged over, a full-window
 * overlay says what will happen. Other drags (text, links) are left to the page.
 */
export function DropToImport() {
  const [over, setOver] = useState(false);
  useEffect(() => {
    // dragenter/dragleave fire for every child crossed: count them to know when the drag left the window.
    let depth = 0;
    const onEnter = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth += 1;
      setOver(true);
    };
    const onLeave = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setOver(false);
    };
    const onOver = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault(); // allows the drop
      if (e.dataTransfer) e.dataTransfer.dropEffect = "copy";
    };
    const onDrop = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth = 0;
      setOver(false);
      // Dropped on the composer: attached there, not imported.
      if (e.defaultPrevented) return;
      e.preventDefault(); // otherwise the browser navigates to the file
      const files = [...(e.dataTransfer?.files ?? [])];
      if (files.length > 0) void importFile(files);
    };
    window.addEventListener("dragenter", onEnter);
    window.addEventListener("dragleave", onLeave);
    window.addEventListener("dragover", onOver);
    window.addEventListener("drop", onDrop);
    return () => {
      window.removeEventListener("dragenter", onEnter);
      window.removeEventListener("dragleave", onLeave);
      window.removeEventListener("dragover", onOver);
      window.removeEventListener("drop", onDrop);
    };
  }, []);
  if (!over) return null;
  return (
    <div className="drop-overlay" aria-hidden="true">
      <div className="drop-card">
        <strong>Drop to import</strong>
        <span>An export from {importableApps()}</span>
      </div>
    </div>
  );
}
