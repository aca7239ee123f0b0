/**
 * Tool-call arguments as the model produced them, turned into the model's object form.
 */
import type { ToolInput } from '../../engine/host/messages';
import { nestsDeeperThan } from './jsonDepth';
import { isJsonObject } from './jsonShape';

/**
 * An object stays as it is; a JSON string (OpenAI `function.arguments`) is parsed; anything that
 * is not an object keeps its exact text as `{ raw }` (a string) or `{ value }` (other JSON), so a
 * malformed call is still visible and nothing is lost. Arguments nested too deeply to walk safely
 * keep their text too.
 */
export function toToolInput(value: unknown): ToolInput {
  if (isJsonObject(value)) return value;
  if (value === undefined || value === null) return {};
  if (typeof value !== 'string') return { value };
  // A call without arguments is often sent as an empty string.
  if (value.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return isJsonObject(parsed) && !nestsDeeperThan(parsed) ? parsed : { raw: value };
  } catch {
    return { raw: value };
  }
}
