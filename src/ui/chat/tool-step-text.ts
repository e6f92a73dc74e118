/**
 * How a tool step reads on screen (issue 28): arguments as indented JSON, a tool's name without the
 * `<server>__` prefix Grove gives it for the provider. Plain text only: tool output and descriptions
 * are never markup (React renders them as text).
 */

/** A call's arguments, indented (a string stays as it is). */
export function formatToolArgs(args: unknown): string {
  if (typeof args === "string") return args;
  try {
    return JSON.stringify(args, null, 2) ?? String(args);
  } catch {
    return String(args);
  }
}

/** The tool's own name: `server__echo` → `echo` (the prefix routes the call; the user knows the tool). */
export function shownToolName(name: string): string {
  const at = name.indexOf("__");
  return at > 0 && at < name.length - 2 ? name.slice(at + 2) : name;
}
