/**
 * One line of a Codex rollout as a kind and a payload, whichever generation of the format wrote
 * it: `{timestamp, type, payload}` records, or, in older rollouts, a first `{id, instructions}` line
 * and bare response items.
 */
import { isJsonObject, stringField, type JsonObject } from './jsonShape';
import type { SourceRecord } from './parseTranscriptText';
import { toEpochMs } from './timestamps';

/** Response item types, for rollouts that write them without the `response_item` wrapper. */
const RESPONSE_ITEM_TYPES = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'web_search_call',
]);

/** A rollout line, unwrapped. */
export interface CodexItem {
  readonly kind: string;
  readonly payload: JsonObject;
  readonly sourceId: string;
  readonly line?: number;
  readonly at?: number;
}

/** The record as a kind and a payload, whichever generation of the format wrote it. */
export function unwrapCodexRecord(source: SourceRecord, index: number): CodexItem | undefined {
  const record = source.value;
  if (!isJsonObject(record)) return undefined;
  const at = toEpochMs(record.timestamp);
  const base = {
    sourceId: `line-${source.line ?? index + 1}`,
    ...(source.line === undefined ? {} : { line: source.line }),
    ...(at === undefined ? {} : { at }),
  };
  const type = stringField(record, 'type');
  if (type !== undefined && isJsonObject(record.payload)) return { kind: type, payload: record.payload, ...base };
  if (type !== undefined && RESPONSE_ITEM_TYPES.has(type)) return { kind: 'response_item', payload: record, ...base };
  if (record.record_type !== undefined) return { kind: `record-${String(record.record_type)}`, payload: record, ...base };
  if (typeof record.id === 'string' && 'instructions' in record) {
    return { kind: 'session_meta', payload: { id: record.id, base_instructions: { text: record.instructions } }, ...base };
  }
  return { kind: type ?? 'untyped', payload: record, ...base };
}
