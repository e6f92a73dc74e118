/** Turns a thrown action error (db, quota, bug) into a plain notice. Actions catch; UI shows. */
import { isQuotaError, STORAGE_FULL_MESSAGE } from "../../core/quota-error";
import { describeFailure } from "./describe-failure";
import { pushNotice } from "./ui-store";

export function reportActionError(what: string, error: unknown): void {
  if (isQuotaError(error)) {
    pushNotice("error", `${what}: ${STORAGE_FULL_MESSAGE}`);
    return;
  }
  pushNotice("error", `${what}: ${describeFailure(error)}`);
  console.error(what, error);
}
