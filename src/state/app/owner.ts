/**
 * Which page owns a draft. Each page load holds a Web Lock named after its owner id for its whole
 * life; the browser releases it when the tab closes or reloads, so "is the owner alive?" is exact
 * and needs no timers (a draft whose owner's lock is gone was interrupted).
 */
const OWNER_ID = `page-${crypto.randomUUID()}`;
const LOCK_PREFIX = "grove-owner:";

export function pageOwnerId(): string {
  return OWNER_ID;
}

/** Take this page's lock; resolves once it is held. */
export async function holdOwnerLock(): Promise<void> {
  if (typeof navigator === "undefined" || !navigator.locks) return;
  await new Promise<void>((acquired) => {
    navigator.locks.request(`${LOCK_PREFIX}${OWNER_ID}`, () => {
      acquired();
      return new Promise<never>(() => {}); // held until the page goes away
    });
  });
}

/**
 * Resolves when the page `ownerId` is gone (its lock is granted to us; released at once). Never
 * resolves for this page, or where Web Locks do not exist.
 */
export function whenOwnerGone(ownerId: string): Promise<void> {
  if (ownerId === OWNER_ID || typeof navigator === "undefined" || !navigator.locks) return new Promise(() => {});
  return navigator.locks.request(`${LOCK_PREFIX}${ownerId}`, async () => {});
}

export async function isOwnerAlive(ownerId: string): Promise<boolean> {
  if (ownerId === OWNER_ID) return true;
  if (typeof navigator === "undefined" || !navigator.locks) return false;
  const { held = [] } = await navigator.locks.query();
  return held.some((l) => l.name === `${LOCK_PREFIX}${ownerId}`);
}
