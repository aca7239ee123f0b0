/**
 * The synthetic agent session of syntheticSession.ts written as a Claude Code transcript file, so
 * that a benchmark can replay it through the command line as a user would: one record a line,
 * the assistant's text and tool call in one API reply, each tool result in a user record.
 */
import * as fs from 'node:fs';
import { toolCalls, toolResults, type Message } from '../../src/engine/types';
import { TYPICAL_RESULTS, syntheticSession } from './syntheticSession';

/** The Claude Code records of one message: one line each. */
function records(msg: Message): object[] {
  const base = { isSidechain: false, sessionId: 'synthetic', timestamp: new Date(msg.at ?? 0).toISOString() };
  if (msg.role === 'tool') {
    const content = toolResults(msg).map((r) => ({ type: 'tool_result', tool_use_id: r.callId, content: r.content, is_error: r.isError }));
    return [{ ...base, type: 'user', uuid: msg.id, message: { role: 'user', content } }];
  }
  if (msg.role === 'assistant') {
    const text = msg.blocks.flatMap((b) => (b.type === 'text' ? [{ type: 'text', text: b.text }] : []));
    const calls = toolCalls(msg).map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.input }));
    // Claude Code writes one record per content block, all with the reply's message id.
    return [...text, ...calls].map((block, i) => ({
      ...base,
      type: 'assistant',
      uuid: `${msg.id}-${i}`,
      message: { id: `msg-${msg.id}`, role: 'assistant', content: [block] },
    }));
  }
  const text = msg.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
  return [{ ...base, type: 'user', uuid: msg.id, message: { role: 'user', content: text } }];
}

/** Writes a synthetic session of `count` messages with results of typical sizes to `file` as a Claude Code transcript; returns its size in bytes. */
export function writeSyntheticTranscript(file: string, count: number): number {
  const fd = fs.openSync(file, 'w');
  try {
    for (const msg of syntheticSession(count, undefined, undefined, TYPICAL_RESULTS)) {
      for (const record of records(msg)) fs.writeSync(fd, `${JSON.stringify(record)}\n`);
    }
  } finally {
    fs.closeSync(fd);
  }
  return fs.statSync(file).size;
}
