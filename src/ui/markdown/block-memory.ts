/**
 * What a code block showed, kept by the block's language and text beyond its component: the
 * virtualized chat unmounts rows that leave the window (scrolled away, the window resized) and
 * mounts them again, and a block must come back as it was (coloured, its preview open or not).
 * Newest kept; the oldest is dropped past `max`. Memory only: a reload starts afresh.
 */
export class BlockMemory<T> {
  private readonly entries = new Map<string, T>();
  constructor(private readonly max: number) {}

  private static key(language: string, text: string): string {
    return `${language}\n${text}`;
  }

  get(language: string, text: string): T | undefined {
    return this.entries.get(BlockMemory.key(language, text));
  }

  has(language: string, text: string): boolean {
    return this.entries.has(BlockMemory.key(language, text));
  }

  set(language: string, text: string, value: T): void {
    const key = BlockMemory.key(language, text);
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
  }
}
