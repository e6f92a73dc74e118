/**
 * Attachments for the end-to-end tests: real files made in memory (a PNG with a gradient, a one-page
 * PDF, a Markdown note) and the three ways a user hands them to the composer: the file picker, a
 * paste and a drop (both synthetic events carrying a DataTransfer, as the browser makes them).
 */
import type { Page } from "@playwright/test";
import { encodePng } from "./mock-server/png";

export type FileSpec = { name: string; mimeType: string; buffer: Buffer };

/** A real RGB PNG of `width`×`height` pixels: a green-to-blue gradient with a diagonal stripe. */
export function gradientPng(width: number, height: number): Buffer {
  return encodePng(width, height, (x, y) =>
    Math.abs(x - y) < 4
      ? [250, 200, 60]
      : [40, Math.round((160 * x) / width) + 60, Math.round((200 * y) / height) + 40],
  );
}

/** A minimal one-page PDF that says `text`. */
export function onePagePdf(text: string): Buffer {
  const stream = `BT /F1 18 Tf 40 100 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

export const PNG: FileSpec = { name: "tide-chart.png", mimeType: "image/png", buffer: gradientPng(96, 64) };
export const PDF: FileSpec = {
  name: "tide-table.pdf",
  mimeType: "application/pdf",
  buffer: onePagePdf("High tide 12:04"),
};
export const NOTE: FileSpec = {
  name: "notes.md",
  mimeType: "text/markdown",
  buffer: Buffer.from("# Notes\n\nBring the `tide` table.\n"),
};

export const attachmentList = (page: Page) => page.getByRole("list", { name: "Attachments" });
export const attachmentItems = (page: Page) => attachmentList(page).getByRole("listitem");

/** Picks files through the composer's file input, as "Attach files" would. */
export async function pickFiles(page: Page, files: readonly FileSpec[]): Promise<void> {
  await page.getByTestId("attach-input").setInputFiles(files.map((f) => ({ ...f })));
}

type EventKind = "paste" | "drop";

/** Dispatches a synthetic paste or drop carrying `file` on the message box, as the browser would. */
export async function pasteOrDrop(page: Page, kind: EventKind, file: FileSpec): Promise<void> {
  await page.getByRole("textbox", { name: "Message" }).evaluate(
    (box, { kind, name, mimeType, base64 }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], name, { type: mimeType }));
      const event =
        kind === "paste"
          ? new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true })
          : new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true });
      box.dispatchEvent(event);
    },
    { kind, name: file.name, mimeType: file.mimeType, base64: file.buffer.toString("base64") },
  );
}

/** The keys of the app's blobs table, read straight from IndexedDB (no app code). */
export async function blobKeys(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open("grove");
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const keys = await new Promise<IDBValidKey[]>((resolve, reject) => {
      const req = db.transaction("blobs", "readonly").objectStore("blobs").getAllKeys();
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    db.close();
    return keys.map(String);
  });
}
