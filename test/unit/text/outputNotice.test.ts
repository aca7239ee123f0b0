import * as assert from 'node:assert/strict';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { recordToolActivity } from '../../../src/engine/ledger/toolRecord';
import { EMPTY_LEDGER } from '../../../src/engine/model/ledgerTypes';
import { withoutOutputNotice } from '../../../src/engine/text/outputNotice';
import { offloadReferenceLine } from '../../../src/engine/text/offloadReference';
import { readToolSteps } from '../../../src/engine/recall/toolSteps';
import { assistant, call, result, user } from '../support/builders';

/** A host's notice in the two shapes hosts write it, each over a preview of what the program printed. */
const NOTICE = 'Result too long (48.2 KB), stored whole at: /srv/host/spill/run-7f3a.txt';
const PREVIEW = ['ingest: 412 rows read', 'ingest: 3 rows rejected (bad station id)', 'ingest done: 409 rows stored'];
const noticed = [NOTICE, '', 'Showing the first 2 KB:', ...PREVIEW].join('\n');
const advised = [NOTICE, 'Read parts of it with head or grep.', '', 'First lines:', ...PREVIEW].join('\n');

describe("a host's note that a tool's output went to a file", () => {
  it('is taken off the top of the result with its advice and the label of the preview, whatever wraps it', () => {
    assert.equal(withoutOutputNotice(noticed, 'python ingest.py'), PREVIEW.join('\n'));
    assert.equal(withoutOutputNotice(advised, 'python ingest.py'), PREVIEW.join('\n'));
    const reference = offloadReferenceLine('Bash', 12_400, 'sessions/s-1/offloaded/ingest.txt');
    assert.equal(
      withoutOutputNotice(`${reference}\n<spilled-output>\n${noticed}\n</spilled-output>`, 'python ingest.py'),
      `${reference}\n<spilled-output>\n${PREVIEW.join('\n')}\n</spilled-output>`,
    );
  });

  it('stays when the program wrote it: a path its command names, output that goes on without a preview, or a whole sentence', () => {
    const written = ['Saved 48.2 KB to /srv/reports/day.csv', '', 'Summary:', 'rows: 409'].join('\n');
    assert.equal(withoutOutputNotice(written, 'python export.py --out /srv/reports/day.csv'), written);
    const downloaded = ['Downloaded 12 MB to /home/u/cache/model.bin', 'verifying checksum', 'ok'].join('\n');
    assert.equal(withoutOutputNotice(downloaded, 'fetch-model'), downloaded);
    const alone = NOTICE;
    assert.equal(withoutOutputNotice(alone, 'python ingest.py'), alone);
  });

  it('is taken off a result once however often the steps are read, so what the result came to is read once too', () => {
    const messages = [call('c1', 'bash', { command: 'python ingest.py --month 2024-03' }), result('c1', noticed)];
    const [first] = readToolSteps(messages);
    const [again] = readToolSteps(messages);
    assert.equal(first.result.content, PREVIEW.join('\n'));
    assert.equal(again.result, first.result, 'the same copy without the note, whose outcome is remembered');
  });

  it('is an error of the step (its output did not reach the model whole), not an outcome nor what the ledger says the command printed', () => {
    const messages = [
      user('Load the March readings into the station database.'),
      call('c1', 'bash', { command: 'python ingest.py --month 2024-03' }, 'Loading them.'),
      result('c1', noticed),
      assistant('Loaded: 409 rows stored, 3 rejected for a bad station id.'),
    ];
    const facts = extractFacts(messages);
    const listed = facts.map((f) => `${f.kind}: ${f.text}`).join('\n');
    assert.deepEqual(
      facts.filter((f) => f.text.includes('stored whole at')).map((f) => f.kind),
      ['error'],
      listed,
    );
    assert.ok(facts.some((f) => f.kind === 'outcome' && f.text === 'ingest: 412 rows read'));
    const [command] = recordToolActivity(messages, EMPTY_LEDGER.tools).commands;
    assert.equal(command.output, 'ingest: 412 rows read … ingest done: 409 rows stored');
  });

  it("is a harness's note in an element of its own right before the element it frames the output in", () => {
    const framed = [
      '<returncode>0</returncode>',
      '<notice>',
      'This output was cut to fit: its middle is left out.',
      'Narrow the command to see less of it.',
      '</notice><output_head>',
      ...PREVIEW,
      '</output_head>',
      '<elided_chars>',
      '18000 characters elided',
      '</elided_chars>',
      '<output_tail>',
      'ingest done: 409 rows stored',
      '</output_tail>',
    ].join('\n');
    const rest = withoutOutputNotice(framed, 'python ingest.py');
    assert.ok(!rest.includes('cut to fit') && rest.includes('ingest: 412 rows read') && rest.includes('18000 characters elided'));
    const facts = extractFacts([call('c1', 'bash', { command: 'python ingest.py' }), result('c1', framed)]);
    assert.deepEqual(
      facts.filter((f) => f.text.includes('cut to fit')).map((f) => [f.kind, f.text]),
      [['error', 'This output was cut to fit: its middle is left out.']],
    );
    const plain = '<returncode>0</returncode>\n<output>\ningest done\n</output>';
    assert.equal(withoutOutputNotice(plain, 'python ingest.py'), plain, 'a status is no note');
  });
});
