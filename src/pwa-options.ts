/**
 * Grove as an installable app that opens with no network (vite-plugin-pwa, generateSW): a web app
 * manifest, and a service worker that precaches the whole build (every lazy chunk too: Markdown,
 * KaTeX fonts, Mermaid, providers, workers, the preview page), so chats stay readable offline and
 * a send fails only at the provider, with a plain message (providers/offline.ts).
 *
 * Registered by the app once the first screen is shown and idle (state/app/service-worker.ts), not
 * by the plugin's script: that one ran on `load`, and the precache (megabytes) shared the first open. The preview page keeps its own headers: it is precached as served and
 * never replaced by the app shell. Pure data: imported by vite.config.ts.
 */
import type { VitePWAOptions } from "vite-plugin-pwa";
import { PREVIEW_PAGE_PATH } from "./security-headers";

const THEME = "#1f6f4a";

export const pwaOptions: Partial<VitePWAOptions> = {
  registerType: "autoUpdate",
  injectRegister: false,
  includeAssets: ["grove.svg"],
  manifest: {
    name: "Grove",
    short_name: "Grove",
    description: "Local-first branching chat with your own API keys",
    start_url: "/",
    scope: "/",
    display: "standalone",
    theme_color: THEME,
    background_color: "#ffffff",
    icons: [
      { src: "/grove-192.png", sizes: "192x192", type: "image/png" },
      { src: "/grove-512.png", sizes: "512x512", type: "image/png" },
      { src: "/grove-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
      { src: "/grove.svg", sizes: "any", type: "image/svg+xml" },
    ],
  },
  workbox: {
    // woff2 only: every browser that runs Grove takes it, KaTeX's .woff/.ttf are never fetched.
    globPatterns: ["**/*.{js,css,html,svg,png,woff2,webmanifest}"],
    // Mermaid's and the tokenizer's chunks are large; a partial cache would fail offline later.
    maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
    navigateFallback: "/index.html",
    navigateFallbackDenylist: [new RegExp(`^${PREVIEW_PAGE_PATH.replace(".", "\\.")}$`)],
    cleanupOutdatedCaches: true,
    clientsClaim: true,
    skipWaiting: true,
  },
};
