/**
 * pi entry ids in Grove. pi's ids are 8 hex digits, unique within one session file; Grove's entry
 * ids are unique across the whole database. So a pi id is kept inside a Grove id: as it is when it
 * is already unique everywhere (a UUID, as in a file Grove wrote), else after its session's id and
 * `~`. The export takes the prefix off again, so a file exported back carries pi's own ids.
 */
import { asEntryId, type EntryId } from "../../session/ids";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SEPARATOR = "~";

export function groveIdOfPi(piSessionId: string, piId: string): EntryId {
  return asEntryId(UUID.test(piId) ? piId : `${piSessionId}${SEPARATOR}${piId}`);
}

export function piIdOfGrove(piSessionId: string, id: string): string {
  const prefix = `${piSessionId}${SEPARATOR}`;
  return id.startsWith(prefix) ? id.slice(prefix.length) : id;
}
