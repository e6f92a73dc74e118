/** Resolves in a later task: what comes after it runs once the page has had its turn (input, a frame). */
export const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
