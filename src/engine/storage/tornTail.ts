/** Where a torn last line is kept when it is moved out of an append-only file. */
import { fileTimestamp } from '../text/sanitize';

/**
 * The side file for a torn tail of `path`: next to it, named with the time and a running number,
 * so repeated repairs never overwrite an earlier one.
 */
export function tornTailPath(path: string, at: number, number: number): string {
  return `${path}.torn-${fileTimestamp(at)}-${number}`;
}
