/**
 * Structured data a tool returned (Cline's `[{query, result}]`, a JSON object of output and
 * metadata) as the text it holds: a string value that spans lines is shown as its lines, not as
 * one JSON line with `\n` escapes, so the lines a tool printed are read, searched and kept as the
 * agent saw them. Nothing is dropped: every key and scalar stays, in order.
 */
import { isJsonObject } from './jsonShape';

/** Levels of nesting shown as keys; deeper values are kept as their JSON. @default 4 */
export const MAX_DATA_DEPTH = 4;

/** `value` as readable text: strings as they are, objects as `key: value` lines, list items one after another. */
export function dataText(value: unknown): string {
  return lines(value, 0).join('\n');
}

function lines(value: unknown, depth: number): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object') return [String(value)];
  if (depth >= MAX_DATA_DEPTH) return [JSON.stringify(value)];
  if (Array.isArray(value)) {
    if (value.every((item) => !isStructured(item))) return [JSON.stringify(value)];
    return value.flatMap((item, i) => [...(i > 0 ? [''] : []), ...lines(item, depth + 1)]);
  }
  if (!isJsonObject(value)) return [JSON.stringify(value)];
  const out: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined) continue;
    if (!isStructured(field) && !(typeof field === 'string' && field.includes('\n'))) {
      out.push(`${key}: ${typeof field === 'string' ? field : JSON.stringify(field)}`);
    } else {
      out.push(`${key}:`, ...lines(field, depth + 1));
    }
  }
  return out;
}

function isStructured(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}

/**
 * The output of a call as Codex wrote it before its output became plain text: a JSON string
 * `{"output": "…", "metadata": {"exit_code": 1}}`. The output and whether the command failed;
 * undefined for any other string.
 */
export function codexOutputEnvelope(text: string): { readonly output: string; readonly failed: boolean } | undefined {
  if (!text.startsWith('{"output"')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(parsed) || typeof parsed.output !== 'string') return undefined;
  const metadata = parsed.metadata;
  const exit = isJsonObject(metadata) ? metadata.exit_code : undefined;
  return { output: parsed.output, failed: typeof exit === 'number' && exit !== 0 };
}

/**
 * The header Codex's shell tools write above a command's output, one field a line, ending with `Output:`:
 * `Chunk ID: 3f2a9c`, `Wall time: 0.61 seconds`, `Process exited with code 1`, `Original token count: 379`.
 * Its script tool's opens with `Script completed`.
 */
const EXEC_FIELDS =
  'Chunk ID|Wall time|Original token count|Total output lines|Process exited with code|Process running with session ID|Exit code|Script completed';
const EXEC_HEADER = new RegExp(`^((?:(?:${EXEC_FIELDS})\\b[^\\n]*\\n){1,8})Output:(?:\\n|$)`);
/** Header lines that say how the command ended or stands: kept, the rest is the harness's bookkeeping (see `cutShort`). */
const EXEC_STATUS = /^(?:Process exited with code|Process running with session ID|Exit code|Script completed)\b/;

/**
 * A shell call's output as Codex writes it now (plain text under its header): the output with only the header's
 * status line above it (`Process exited with code 1`), and whether the command failed; undefined for any other string.
 */
export function codexExecOutput(text: string): { readonly output: string; readonly failed: boolean } | undefined {
  const header = EXEC_HEADER.exec(text);
  if (header === null) return undefined;
  const body = text.slice(header[0].length);
  const kept: string[] = [];
  let code: RegExpExecArray | null = null;
  for (const line of header[1].split('\n')) {
    const exit = EXEC_STATUS.test(line);
    if (exit) code ??= /(?:code:?\s*)(-?\d+)/.exec(line);
    if (exit || cutShort(line, body)) kept.push(line);
  }
  return { output: [...kept, ...(body === '' ? [] : [body])].join('\n'), failed: code !== null && Number(code[1]) !== 0 };
}

/**
 * True for the header's `Original token count: N` when the output shown cannot hold N tokens (at most a token a
 * character): the harness cut it, and how much there was is worth knowing.
 */
function cutShort(line: string, body: string): boolean {
  const count = /^Original token count:\s*(\d+)/.exec(line);
  return count !== null && Number(count[1]) > body.length;
}
