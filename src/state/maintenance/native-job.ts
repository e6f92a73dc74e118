/**
 * The provider-native part of a compaction job (issue 10): present when the chat's provider is set
 * to "Provider-native when available" and its api has a native compaction (core/compaction/native-method.ts).
 */
import { nativeMethodFor } from "../../core/compaction/native-method";
import type { CompactionSettings } from "../../core/compaction/settings";
import type { CompactJob } from "../../worker/api";
import type { ChatTarget } from "../models/chat-target";

export function nativeJob(chat: ChatTarget, settings: CompactionSettings): Pick<CompactJob, "native"> {
  const method = nativeMethodFor(settings, chat.provider);
  if (method === null) return {};
  return { native: { method, provider: chat.provider, model: chat.modelId, maxOutput: chat.model.info.maxOutput } };
}
