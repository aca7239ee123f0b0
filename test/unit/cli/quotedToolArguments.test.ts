import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { RecoveryHit } from '../../../src/engine/model/recoveryTypes';
import { buildCli, runBuiltCli, TemporaryFolders } from './builtCli';

/** What the agent wrote inside its tool call, quotes and all. */
const QUOTED = 'grep -rn "retry budget exceeded" src/net';
const NOTE = 'The log says "retry budget exceeded" and then \'gave up\'.';

/** A small OpenAI-style session whose tool call arguments hold quoted strings, one of them over two lines. */
function transcript(): string {
  return JSON.stringify({
    messages: [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'Find where the client gives up on retries.' },
      {
        role: 'assistant',
        content: 'Searching for the message.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'shell', arguments: JSON.stringify({ command: QUOTED, timeout: 30 }) } },
          { id: 'c2', type: 'function', function: { name: 'note', arguments: JSON.stringify({ text: `${NOTE}\nNext: read client.ts` }) } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'src/net/client.ts:88: throw new Error(`retry budget exceeded`)' },
      { role: 'tool', tool_call_id: 'c2', content: 'noted' },
      { role: 'assistant', content: 'Found it in client.ts.' },
    ],
  });
}

describe('tool call arguments with quotes, replayed', function () {
  this.timeout(120_000);
  const temporary = new TemporaryFolders();
  let out: string;
  before(() => {
    buildCli();
    const folder = temporary.make('quoted');
    const file = path.join(folder, 'session.json');
    fs.writeFileSync(file, transcript());
    out = path.join(folder, 'out');
    const run = runBuiltCli(['replay', file, '--budget', '64000', '--out', out, '--json']);
    assert.equal(run.status, 0, run.stderr);
  });
  after(() => temporary.removeAll());

  it('show each string argument in the rendered context as the agent wrote it, quotes unescaped', () => {
    const context = fs.readFileSync(path.join(out, 'context.md'), 'utf8');
    assert.ok(context.includes(QUOTED), context);
    assert.ok(context.includes(`${NOTE}\nNext: read client.ts`));
    assert.ok(context.includes('`timeout`:\n```json\n30\n```'), 'other values stay JSON');
  });

  it('are found verbatim by search, quotes included', () => {
    const run = runBuiltCli(['search', out, '"retry budget exceeded"', '--top', '3', '--json']);
    assert.equal(run.status, 0, run.stderr);
    const { hits } = JSON.parse(run.stdout) as { hits: RecoveryHit[] };
    assert.ok(
      hits.some((hit) => hit.excerpt.includes('"retry budget exceeded"')),
      hits.map((h) => h.excerpt).join('\n---\n'),
    );
  });
});
