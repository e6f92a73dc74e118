/**
 * The search worker's entry: one chat search service (search-service.ts) for the page's life,
 * exposed over comlink. Indexing and querying a large history happen here, off the page's thread.
 */
import { serveWorker } from "../../worker-kit/serve-worker";
import type { SearchApi } from "./search-api";
import { createSearchService } from "./search-service";

const service = createSearchService();
const api: SearchApi = { search: service.search, refresh: service.refresh, hold: service.hold };
serveWorker(api);
