import * as assert from 'node:assert/strict';
import { OUTPUT_HEAD_LINES, OUTPUT_TAIL_LINES, outputLineFacts } from '../../../src/engine/recall/outputLines';
import { call, result } from '../support/builders';

describe("lines of what the tools printed, for the earlier lines' pool", () => {
  it("takes the lines at both ends of a command's output verbatim, marked as printed and scored below every fact", () => {
    const body = Array.from({ length: 40 }, (_, i) => `  compiling module_${i} of the workspace`);
    const output = [
      'Deploying build 4812 to staging',
      ...body,
      'Uploaded 3 artifacts to s3://releases/4812',
      'Deploy finished: staging is on 4812',
    ];
    const facts = outputLineFacts([call('d1', 'bash', { command: './deploy.sh staging' }), result('d1', output.join('\n'))]);
    const texts = facts.map((f) => f.text);
    assert.ok(texts.includes('Deploying build 4812 to staging'), 'the first line');
    assert.ok(texts.includes('Deploy finished: staging is on 4812'), 'the last line');
    assert.ok(texts.includes('Uploaded 3 artifacts to s3://releases/4812'));
    assert.ok(facts.length <= OUTPUT_HEAD_LINES + OUTPUT_TAIL_LINES, `${facts.length} lines, not the whole output`);
    assert.ok(facts.every((f) => f.printed === true && f.score < 0.25 && f.subject === './deploy.sh staging'));
  });

  it('keeps a column-aligned line with its spacing, so it is found as it was printed', () => {
    const output = ['To github.com:acme/ledger.git', '   4f1c2e9..8b0d7a1  release    -> release', 'Everything is pushed now'];
    const facts = outputLineFacts([call('p1', 'bash', { command: 'git push origin release' }), result('p1', output.join('\n'))]);
    assert.ok(
      facts.some((f) => f.text === '4f1c2e9..8b0d7a1  release    -> release'),
      facts.map((f) => f.text).join('\n'),
    );
  });

  it("takes nothing from a file's content, and no line without words", () => {
    const read = outputLineFacts([
      call('r1', 'Read', { file_path: 'src/app.ts' }),
      result('r1', 'export const app = createApp();\n', false, 'Read'),
    ]);
    assert.deepEqual(read, []);
    const noise = outputLineFacts([call('n1', 'bash', { command: 'ls' }), result('n1', '$\n----\n42\n')]);
    assert.deepEqual(noise, []);
  });
});
