/** The mock provider server's public surface (see server.ts for how it runs, README.md for usage). */

export { ANTHROPIC_OVERFLOW_MESSAGE } from "./anthropic";
export { CHAT_TITLE_SYSTEM_MARK, isChatTitleRequest } from "./chat-title";
export { OPENAI_OVERFLOW_MESSAGE } from "./openai";
export { DEFAULT_MOCK_CONFIG, startMockServer } from "./server";
export type {
  Api,
  Fault,
  Hold,
  MockConfig,
  MockConfigPatch,
  MockServer,
  MockServerOptions,
  RecordedRequest,
  ReplyScript,
  RequestFilter,
  RequestOutcome,
  ScriptCitation,
  ScriptMatch,
  ScriptToolCall,
  ServerToolScript,
} from "./types";
export {
  lastToolResultText,
  lastUserText,
  type MessageView,
  ROLE_ALTERNATION_MESSAGE,
  requestMessages,
  requestSystem,
  requestTools,
  type ToolView,
} from "./wire";
