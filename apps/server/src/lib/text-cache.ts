export interface TextCache<T> {
  get(text: string): T | undefined;
  set(text: string, value: T): void;
}

/**
 * What some work gave for a text, for work that always gives the same for the same text (parsing
 * it): at most `maxEntries` texts, the least recently used forgotten first.
 */
export function createTextCache<T>(maxEntries: number): TextCache<T> {
  const entries = new Map<string, T>();
  return {
    get(text) {
      const value = entries.get(text);
      if (value === undefined) return undefined;
      // Most recently used last: a Map keeps insertion order.
      entries.delete(text);
      entries.set(text, value);
      return value;
    },
    set(text, value) {
      entries.delete(text);
      entries.set(text, value);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
  };
}
