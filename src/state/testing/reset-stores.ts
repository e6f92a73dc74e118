/**
 * Vitest setup (vitest.config.ts `setupFiles`): every store back to its first state after each
 * test, as zustand's testing guide does, so no test sees what another left in a store.
 */
import { afterEach } from "vitest";
import { resetStores } from "../app/store-registry";

afterEach(() => resetStores());
