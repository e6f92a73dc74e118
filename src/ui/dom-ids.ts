/** Element ids other components move focus to (the command palette, the skip link). */
export const CHAT_SEARCH_ID = "chat-search";
