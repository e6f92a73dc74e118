import { type ComponentProps, lazy } from "react";
import { LazyPart } from "../common/LazyPart";
import type { BulkDeleteBar as BulkDeleteImpl } from "./BulkDelete";

/**
 * The sessions list's parts that its first screen does not show, as chunks of their own: the bar
 * for deleting selected chats (loaded when "Select" is pressed). Same names and props as the
 * components they stand for.
 */
const BulkDelete = lazy(() => import("./BulkDelete").then((m) => ({ default: m.BulkDeleteBar })));

export function BulkDeleteBar(props: ComponentProps<typeof BulkDeleteImpl>) {
  return (
    <LazyPart>
      <BulkDelete {...props} />
    </LazyPart>
  );
}
