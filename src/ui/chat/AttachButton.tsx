import { useRef } from "react";
import { ACCEPT_ATTRIBUTE } from "../../core/attachments/kinds";

/** The files a paste or a drop carries (none for plain text). */
export function filesOf(data: DataTransfer | null): File[] {
  return data ? Array.from(data.files) : [];
}

/** "Attach files": opens the file picker (images, PDFs, text files; several at once). */
export function AttachButton({ onFiles }: { onFiles: (files: File[]) => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        type="button"
        className="icon-button attach-button"
        aria-label="Attach files"
        title="Attach files (images, PDFs, text files) — or paste or drop them here"
        onClick={() => input.current?.click()}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
          <path
            d="M21 11.5l-8.6 8.6a5.5 5.5 0 0 1-7.8-7.8l8.6-8.6a3.7 3.7 0 0 1 5.2 5.2l-8.6 8.6a1.8 1.8 0 0 1-2.6-2.6l7.9-7.9"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        accept={ACCEPT_ATTRIBUTE}
        data-testid="attach-input"
        onChange={(e) => {
          const picked = Array.from(e.target.files ?? []);
          // Cleared so picking the same file again fires a change.
          e.target.value = "";
          if (picked.length > 0) onFiles(picked);
        }}
      />
    </>
  );
}
