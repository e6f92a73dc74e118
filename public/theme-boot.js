// Runs before the first paint (a classic script in <head>): sets <html data-theme> from the saved
// choice (src/ui/theme.ts owns the rule and the key) so a dark page never flashes light on load.
(() => {
  let choice = null;
  try {
    choice = localStorage.getItem("grove.theme");
  } catch {
    // Storage blocked: follow the system.
  }
  const dark = choice === "dark" || (choice !== "light" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
})();
