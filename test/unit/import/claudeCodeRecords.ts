/**
 * Builders of Claude Code session records, shaped like the real files but only with the fields
 * the importer reads (plus the ones it must ignore).
 */

const RECORDED_AT = '2026-02-12T15:36:09.570Z';

export function userRecord(uuid: string, content: unknown, extra: Record<string, unknown> = {}): object {
  return { type: 'user', uuid, isSidechain: false, sessionId: 's1', timestamp: RECORDED_AT, message: { role: 'user', content }, ...extra };
}

/** One record of an API reply: Claude Code writes one per content block, all with the reply's `message.id`. */
export function assistantRecord(uuid: string, apiMessageId: string, block: object, extra: Record<string, unknown> = {}): object {
  return {
    type: 'assistant',
    uuid,
    isSidechain: false,
    sessionId: 's1',
    timestamp: RECORDED_AT,
    message: { id: apiMessageId, role: 'assistant', content: [block] },
    ...extra,
  };
}

export function text(value: string): object {
  return { type: 'text', text: value };
}

export function toolUse(id: string, name: string, input: object): object {
  return { type: 'tool_use', id, name, input };
}

export function toolResult(toolUseId: string, content: unknown, isError?: boolean): object {
  return { type: 'tool_result', tool_use_id: toolUseId, content, ...(isError === undefined ? {} : { is_error: isError }) };
}

export function progressRecord(uuid: string): object {
  return { type: 'progress', uuid, sessionId: 's1', timestamp: RECORDED_AT, data: { type: 'hook_progress' } };
}

export function jsonl(records: readonly object[]): string {
  return `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;
}
