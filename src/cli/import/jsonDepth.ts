/**
 * How deep parsed JSON nests. Parsing never overflows, but everything after it that walks a value
 * recursively (writing it back as JSON, rendering, counting) does past a few thousand levels, so
 * input that deep is refused up front with a plain reason.
 */

/** Deepest nesting read; real transcripts stay within a few dozen levels. */
export const MAX_JSON_DEPTH = 1_000;

/** True when the value nests lists and objects more than `limit` levels deep. Walks without recursion. */
export function nestsDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  const stack: { readonly value: unknown; readonly depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

/** The reason given for input nested too deeply. */
export const TOO_DEEP_REASON = `its JSON nests more than ${MAX_JSON_DEPTH.toLocaleString('en-US')} levels deep, more than ctx reads`;
