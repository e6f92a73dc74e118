/**
 * Vitest setup (vitest.config.ts `setupFiles`): Testing Library's `waitFor`/`findBy*` give up after
 * 1 s by default, which a loaded 2-core machine misses while a lazy chunk (highlight.js, a dialog)
 * loads. The tests wait on state; this bound only catches a hang, like `testTimeout`.
 */
import { configure } from "@testing-library/dom";

configure({ asyncUtilTimeout: 20_000 });
