import { useState } from "react";
import { useNewChatSetup } from "../../state/sessions/chat-setup";
import { SessionPromptDialog } from "./lazy-chat";

/** Before the first message: set the new chat's own system prompt (saved presets included). */
export function NewChatSetup() {
  const [open, setOpen] = useState(false);
  const prompt = useNewChatSetup((s) => s.systemPrompt);
  return (
    <p className="new-chat-setup small">
      <button type="button" className={prompt !== undefined ? "chip active" : "chip"} onClick={() => setOpen(true)}>
        Chat prompt
      </button>{" "}
      <span className="muted">
        {prompt !== undefined
          ? "This chat will start with its own system prompt."
          : "Give this chat its own system prompt before you start."}
      </span>
      {open && <SessionPromptDialog session={undefined} onClose={() => setOpen(false)} />}
    </p>
  );
}
