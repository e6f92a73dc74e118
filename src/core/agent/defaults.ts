/**
 * The loop's defaults the settings show, apart from the loop itself: Settings is on the first
 * screen, the loop loads with the first tool call.
 */

/** Model calls in one loop unless the settings say otherwise (issue 28: "default 25"). */
export const DEFAULT_MAX_STEPS = 25;
