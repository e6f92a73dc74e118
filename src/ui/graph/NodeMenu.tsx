import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { GraphNode } from "../../core/graph/node";
import type { SessionId } from "../../core/session/ids";
import { useMaintenanceStore } from "../../state/maintenance/maintenance-store";
import { useStreamStore } from "../../state/reply/stream-store";
import { LABEL_MAX_CHARS, labelEntry } from "../../state/sessions/labels";
import { moveMenuFocus } from "../common/menu-keys";
import {
  branchFromGraph,
  compactUpTo,
  copyEntryText,
  openLinkedSession,
  showInChat,
  switchFromGraph,
} from "./graph-actions";

type Item = { id: string; text: string; run: () => void; disabled?: boolean; title?: string };

/**
 * The node's actions (role=menu): Switch here, Branch from here, Compact up to here (active path
 * only), Copy text, Label (an inline "Label" textbox), collapse, open a linked chat. Opened from
 * the "Node actions" button, a right-click or Shift+F10 / the context-menu key on a node. Arrow
 * keys move, Escape closes and gives focus back.
 */
export function NodeMenu({
  node,
  sessionId,
  anchor,
  opener,
  startLabelling,
  onClose,
  onToggleCollapse,
}: {
  node: GraphNode;
  sessionId: SessionId;
  /** Where it opens, in the viewport's pixels (clamped to it): the top-left corner, or the bottom-left one "above". */
  anchor: { x: number; y: number; placement: "below" | "above"; bounds: { width: number; height: number } };
  /** The button that opened it: pressing it again toggles rather than closing and reopening. */
  opener: HTMLElement | null;
  startLabelling: boolean;
  /** `refocus`: give focus back to where the menu was opened from. */
  onClose: (refocus: boolean) => void;
  onToggleCollapse: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [labelling, setLabelling] = useState(startLabelling);
  const [text, setText] = useState(node.label ?? "");
  const [position, setPosition] = useState({ left: anchor.x, top: anchor.y });
  const replying = useStreamStore((s) => sessionId in s.replies);
  const maintenance = useMaintenanceStore((s) => s.op !== null);
  const entry = node.entry;

  // Keep the menu inside the viewport once its size is known (it changes with the label form).
  const { x, y, placement } = anchor;
  const { width, height } = anchor.bounds;
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measure when the label form replaces the items
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const left = Math.max(8, Math.min(x, width - el.offsetWidth - 8));
    const wanted = placement === "above" ? y - el.offsetHeight : y;
    const top = Math.max(8, Math.min(wanted, height - el.offsetHeight - 8));
    setPosition({ left, top });
  }, [x, y, placement, width, height, labelling]);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const first = el.querySelector<HTMLElement>(labelling ? "input" : '[role="menuitem"]:not([aria-disabled="true"])');
    first?.focus();
  }, [labelling]);

  // A press anywhere else closes it.
  useEffect(() => {
    const onDown = (e: PointerEvent) => {
      if (!(e.target instanceof Node) || ref.current?.contains(e.target) || opener?.contains(e.target)) return;
      onClose(false);
    };
    document.addEventListener("pointerdown", onDown, true);
    return () => document.removeEventListener("pointerdown", onDown, true);
  }, [onClose, opener]);

  const close = (then: () => void) => () => {
    onClose(true);
    then();
  };

  const items: Item[] = [];
  if (entry) {
    if (!node.isLeaf) {
      items.push({ id: "switch", text: "Switch here", run: close(() => void switchFromGraph(sessionId, entry.id)) });
    }
    items.push({
      id: "branch",
      text: "Branch from here",
      run: close(() => void branchFromGraph(sessionId, entry, node.onActivePath)),
    });
    if (node.onActivePath) {
      const busy = replying || maintenance;
      items.push({
        id: "compact",
        text: "Compact up to here",
        disabled: busy,
        title: busy ? "Wait for the reply or the compaction in progress to finish" : undefined,
        run: close(() => compactUpTo(sessionId, entry, node.title)),
      });
      items.push({ id: "show", text: "Show in chat", run: close(() => showInChat(entry.id)) });
    }
    items.push({ id: "copy", text: "Copy text", run: close(() => void copyEntryText(entry)) });
    items.push({ id: "label", text: node.label ? "Edit label…" : "Label…", run: () => setLabelling(true) });
  }
  if (node.children.length > 0 || node.collapsed) {
    items.push({
      id: "collapse",
      text: node.collapsed ? "Expand branch" : "Collapse branch",
      run: close(onToggleCollapse),
    });
  }
  if (node.handoff) {
    const link = node.handoff;
    items.push({
      id: "open",
      text: link.direction === "to" ? "Open the next chat" : "Open the earlier chat",
      run: close(() => openLinkedSession(link.sessionId)),
    });
  }

  const onKeyDown = (e: React.KeyboardEvent<HTMLDivElement>) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      if (labelling && !startLabelling) setLabelling(false);
      else onClose(true);
      return;
    }
    if (e.key === "Tab") {
      onClose(false);
      return;
    }
    if (!labelling) moveMenuFocus(e, ref.current);
  };

  const save = async (value: string) => {
    if (!entry) return;
    if (await labelEntry(entry.id, value)) onClose(true);
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: keys are handled for the menu or form inside
    <div
      ref={ref}
      className="graph-menu"
      data-no-pan=""
      style={{ left: position.left, top: position.top }}
      onKeyDown={onKeyDown}
    >
      {labelling && entry ? (
        <form
          className="graph-label-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save(text);
          }}
        >
          <label className="graph-label-field">
            <span>Label</span>
            <input
              value={text}
              maxLength={LABEL_MAX_CHARS}
              placeholder="A bookmark, e.g. “good answer”"
              onChange={(e) => setText(e.target.value)}
            />
          </label>
          <div className="graph-label-actions">
            <button type="submit" className="primary">
              Save label
            </button>
            {node.label && (
              <button type="button" onClick={() => void save("")}>
                Remove label
              </button>
            )}
            <button type="button" onClick={() => onClose(true)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div role="menu" aria-label="Node actions">
          {items.map((item) => (
            <button
              key={item.id}
              type="button"
              role="menuitem"
              tabIndex={-1}
              aria-disabled={item.disabled || undefined}
              title={item.title}
              onClick={() => !item.disabled && item.run()}
            >
              {item.text}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
