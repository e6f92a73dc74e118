/** Turns a thrown action error (db, quota, bug) into a plain notice. Actions catch; UI shows. */
import type { MessageError } from "../../core/session/entries";
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
  pushNotice("error", `${what}: ${detailOf(error)}`);
  console.error(what, error);
}

/** An Error's message, a classified provider failure's own sentence (not prefixed again), or the value. */
function detailOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (isMessageError(error)) return describeFailure(error);
  return String(error);
}

function isMessageError(e: unknown): e is MessageError {
  return typeof e === "object" && e !== null && "kind" in e && typeof (e as { message?: unknown }).message === "string";
}
