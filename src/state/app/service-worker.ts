/**
 * Registers the service worker (vite-plugin-pwa's generateSW build, src/pwa-options.ts). Called
 * once the first open has settled (boot.ts): installing it precaches the whole build (megabytes),
 * which must not share a first open's network and CPU. The plugin's own register script ran on `load`,
 * during the open; it is turned off (`injectRegister: false`).
 */
const SERVICE_WORKER_URL = "/sw.js";

export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  void navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: "/" }).catch(() => {
    // No service worker (a private window, a host without it): the app works online as before.
  });
}
