import { importFile } from "../../state/app/lazy";
import { IMPORT_ACCEPT } from "../sessions/ImportControls";

/** The palette's "Import chats…": the same file picker as the sessions list's Import button. */
export function pickFilesToImport(): void {
  const input = document.createElement("input");
  input.type = "file";
  input.accept = IMPORT_ACCEPT;
  input.multiple = true;
  input.addEventListener("change", () => {
    const files = [...(input.files ?? [])];
    if (files.length > 0) void importFile(files);
  });
  input.click();
}
