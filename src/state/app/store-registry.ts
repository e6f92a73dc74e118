/**
 * Every zustand store of the app is made here, so that one call puts them all back: zustand's
 * testing guide has each store register its reset and resets all of them after each test
 * (src/state/testing/reset-stores.ts does, for every unit test). The stores themselves are defined
 * in their feature's room (state/README.md); this module only makes and resets them.
 */
import { create, type StoreApi, type UseBoundStore } from "zustand";

const resets = new Set<() => void>();

/** A zustand store whose first state is `initial()`; `resetStores` puts it back to that state. */
export function defineStore<T extends object>(initial: () => T): UseBoundStore<StoreApi<T>> {
  const store = create<T>()(initial);
  resets.add(() => store.setState(initial(), true));
  return store;
}

/** Every store back to its first state (tests: each store registered itself when its module loaded). */
export function resetStores(): void {
  for (const reset of resets) reset();
}
