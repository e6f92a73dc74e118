/**
 * The user's answer to one tool call, as the loop needs it (allow or deny), keeping the standing
 * permissions the answer gives ("Allow in this chat", "Always allow").
 */
import type { ApprovalDecision } from "../../core/agent/types";
import type { SessionId } from "../../core/session/ids";
import type { McpServerSetting } from "../settings/tool-settings";
import { askApproval } from "./approval-store";
import { allowAlways, allowInChat } from "./chat-tools";

export async function answerToApproval(
  sessionId: SessionId,
  server: McpServerSetting,
  tool: string,
  args: unknown,
  signal: AbortSignal,
): Promise<ApprovalDecision> {
  const answer = await askApproval({ sessionId, server: server.name, tool, args }, signal);
  if (signal.aborted) return "deny";
  if (answer === "chat") await allowInChat(sessionId, server.id, tool);
  else if (answer === "always") await allowAlways(server.id, tool);
  return answer === "deny" ? "deny" : "allow";
}
