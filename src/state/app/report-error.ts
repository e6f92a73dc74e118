/** Turns a thrown action error (db, quota, bug) into a plain notice. Actions catch; UI shows. */
import { isQuotaError } from "../../db/storage";
import { describeFailure } from "./describe-failure";
import { pushNotice } from "./ui-store";

export function reportActionError(what: string, error: unknown): void {
  if (isQuotaError(error)) {
    pushNotice(
      "error",
      `${what}: the browser's storage for Grove is full. Nothing was half-written. Free space by deleting old chats (export them first), then try again.`,
    );
    return;
  }
  pushNotice("error", `${what}: ${describeFailure(error)}`);
  console.error(what, error);
}
