/**
 * The import worker's entry: one import job per worker, exposed over comlink. The page starts a
 * worker for each import (client.ts) and terminates it when the import is over, so a 100 MB parse
 * leaves no memory behind in the page or in a long-lived worker.
 */
import * as Comlink from "comlink";
import { createImportJob } from "./import-job";

Comlink.expose(createImportJob());
