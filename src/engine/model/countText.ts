/** Counts the tokens of a text; the engine passes its TokenCounter's `countText`. */
export type CountText = (text: string) => Promise<number>;
