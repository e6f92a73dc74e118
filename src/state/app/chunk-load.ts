/**
 * Code fetched on demand (the app's chunks) can fail to arrive: offline before the service worker
 * cached it, or a tab left open across an update whose old chunks are gone. One sentence says so
 * everywhere, with what to do.
 */
import { pushNotice } from "./ui-store";

export const CHUNK_LOAD_FAILED =
  "Part of Grove could not be loaded (it may have been updated). Reload the page to continue.";

/** `load()`, with the notice said when the chunk cannot be fetched (the error still goes to the caller). */
export async function loadChunk<M>(load: () => Promise<M>): Promise<M> {
  try {
    return await load();
  } catch (e) {
    pushNotice("error", CHUNK_LOAD_FAILED);
    throw e;
  }
}
