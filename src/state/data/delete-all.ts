/** "Delete all data" (Settings › Data): stop what runs, delete the database and Grove's local keys. */
import { deleteDatabase } from "../../db/delete-all";
import { reportActionError } from "../app/report-error";
import { stopReply } from "../reply/reply-lane";
import { useStreamStore } from "../reply/stream-store";

/** Keys Grove keeps in localStorage (the theme, test flags): all start with this. */
const LOCAL_KEY_PREFIX = "grove.";

/**
 * Returns whether everything was deleted; the caller then reloads the page (this tab's database
 * connection is closed for good). On failure nothing is reloaded and the error is reported.
 */
export async function deleteAllData(): Promise<boolean> {
  try {
    for (const reply of Object.values(useStreamStore.getState().replies)) stopReply(reply.sessionId);
    await deleteDatabase();
    for (const key of Object.keys(localStorage)) if (key.startsWith(LOCAL_KEY_PREFIX)) localStorage.removeItem(key);
    return true;
  } catch (e) {
    reportActionError("Could not delete the data", e);
    return false;
  }
}
