import * as assert from 'node:assert/strict';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { messageText, toolResults } from '../../../src/engine/types';
import { assertWellFormed } from './pairingInvariants';

describe('Anthropic-style and Cline import', () => {
  const cline = JSON.stringify({
    version: 1,
    sessionId: '1784094124598_rruoq',
    system_prompt: 'You are Cline.',
    messages: [
      {
        id: 'm1',
        role: 'user',
        ts: 1783376868634,
        content: [
          { type: 'text', text: 'can you update @agent-sidebar.tsx' },
          { type: 'file', path: '/repo/agent-sidebar.tsx', content: 'export function Sidebar() {}' },
        ],
      },
      {
        id: 'm2',
        role: 'assistant',
        ts: 1783376873493,
        content: [
          { type: 'text', text: 'Editing.' },
          { type: 'tool_use', id: 'toolu_1', name: 'editor', input: { path: '/repo/agent-sidebar.tsx' } },
        ],
      },
      {
        id: 'm3',
        role: 'user',
        ts: 1783376873501,
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            name: 'editor',
            content: '{"query":"edit:/repo/agent-sidebar.tsx","result":"Edited"}',
          },
        ],
      },
    ],
  });

  it('imports the system prompt, an inlined file as text, and millisecond timestamps', () => {
    const result = importTranscript(cline);
    assert.equal(result.format, 'anthropic');
    assert.equal(result.sessions[0].id, '1784094124598_rruoq');
    assert.deepEqual(
      result.messages.map((m) => m.role),
      ['system', 'user', 'assistant', 'tool'],
    );
    assert.equal(
      messageText(result.messages[1]),
      'can you update @agent-sidebar.tsx\n[file /repo/agent-sidebar.tsx]\nexport function Sidebar() {}',
    );
    assert.equal(result.messages[1].at, 1783376868634);
  });

  it('keeps a JSON-string tool result exactly as stored', () => {
    const [output] = importTranscript(cline).messages.flatMap(toolResults);
    assert.deepEqual([output.content, output.toolName], ['{"query":"edit:/repo/agent-sidebar.tsx","result":"Edited"}', 'editor']);
  });

  it('shows structured result content as the text it holds, every key kept and multi-line values as their lines', () => {
    const result = importTranscript(
      JSON.stringify({
        messages: [
          { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'read_files', input: { files: [] } }] },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 't',
                content: [
                  { query: 'a.ts:1-2', result: '1 | x\n2 | y', lines: 2 },
                  { query: 'b.ts', result: "Error: ENOENT: no such file or directory, open 'b.ts'" },
                ],
              },
            ],
          },
        ],
      }),
    );
    assert.equal(
      result.messages.flatMap(toolResults)[0].content,
      [
        'query: a.ts:1-2',
        'result:',
        '1 | x',
        '2 | y',
        'lines: 2',
        '',
        'query: b.ts',
        "result: Error: ENOENT: no such file or directory, open 'b.ts'",
      ].join('\n'),
    );
    assert.deepEqual(result.warnings, []);
    assertWellFormed(result);
  });
});
