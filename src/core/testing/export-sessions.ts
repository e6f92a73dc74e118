/**
 * TEST-ONLY sessions for the exporters. `deepForkSession`: an active path r → leaf, and off it a
 * "staircase" s0 → s1 → … where every s_i also has a newer leaf child x_i, so each level is a fork
 * whose older child carries on: `depth` levels of nested branches (text "step i" and "side i").
 */

import type { ExportedSession } from "../export/grove-json";
import type { Entry, Session } from "../session/entries";
import { a, at, eid, SESSION, u } from "./entries";

export function deepForkSession(depth: number): ExportedSession {
  const entries: Entry[] = [at(u("r", "root"), null, 0), at(a("leaf", "active end"), "r", 1)];
  let parent = "r";
  for (let i = 0; i < depth; i++) {
    entries.push(at(u(`s${i}`, `step ${i}`), parent, 10 + 2 * i));
    entries.push(at(a(`x${i}`, `side ${i}`), parent, 11 + 2 * i));
    parent = `s${i}`;
  }
  const session: Session = {
    id: SESSION,
    title: "Deep",
    titleSource: "user",
    createdAt: 0,
    updatedAt: 0,
    leafId: eid("leaf"),
  };
  return { session, entries, labels: {} };
}
