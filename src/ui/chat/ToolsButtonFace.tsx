import { WrenchIcon } from "../common/icons";

/**
 * What the composer's Tools button shows: the wrench, the word (hidden on a phone) and how many
 * tools are on. One face for the button (ToolsMenu.tsx) and for its stand-in while the menu's code
 * arrives (lazy-tools.tsx), so the two are always the same size.
 */
export function ToolsButtonFace({ live = 0 }: { live?: number }) {
  return (
    <>
      <WrenchIcon />
      <span className="tools-button-word">Tools</span>
      {live > 0 && <span aria-hidden="true"> · {live}</span>}
    </>
  );
}
