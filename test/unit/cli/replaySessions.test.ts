import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { buildCli, runBuiltCli, TemporaryFolders } from './builtCli';
import { systemClock } from '../../../src/engine/ports';
import { peekSessionState } from '../../../src/engine/storage/sessionJournal';
import { FileStore } from '../../../src/engine/storage/fileStore';

/** Three tasks in one OpenHands output file, each a line of its own. */
const TASKS = ['alpha', 'beta', 'gamma'].map((name, i) =>
  JSON.stringify({
    instance_id: `repo__${name}`,
    instruction: `Fix ${name}`,
    history: [
      { id: 1, source: 'user', action: 'message', args: { content: `Fix the ${name} bug` } },
      ...Array.from({ length: i + 1 }, (_, n) => [
        { id: 10 + 2 * n, source: 'agent', action: 'run', args: { command: `ls ${name}${n}`, thought: '' } },
        { id: 11 + 2 * n, source: 'agent', observation: 'run', cause: 10 + 2 * n, content: `${name}${n}.py`, extras: {} },
      ]).flat(),
    ],
  }),
);

describe('the replay command with several sessions and what the import left out', function () {
  this.timeout(120_000);
  const temporary = new TemporaryFolders();
  let transcript: string;
  before(() => {
    buildCli();
    transcript = path.join(temporary.make('sessions'), 'output.jsonl');
    fs.writeFileSync(transcript, `${TASKS.join('\n')}\n`);
  });
  after(() => temporary.removeAll());

  const replay = (...extra: string[]) =>
    runBuiltCli(['replay', transcript, '--budget', '8000', '--out', path.join(temporary.make('out'), 'o'), ...extra]);

  it('replays the first session by default and says how many there are and how to choose', () => {
    const run = replay();
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^Replayed .* \(openhands, session 1 of 3: repo__alpha\): 3 messages, 1 tool calls\.\n/);
    assert.match(run.stdout, /\nSessions: 3 in the file; replay another with --session <number or id>\n/);
  });

  it('replays the session --session names, by number or by id', () => {
    const expected = importTranscript(fs.readFileSync(transcript, 'utf8')).sessions;
    for (const [choice, index] of [
      ['2', 1],
      ['repo__gamma', 2],
    ] as const) {
      const run = replay('--session', choice, '--json');
      assert.equal(run.status, 0, run.stderr);
      const report = JSON.parse(run.stdout) as Record<string, unknown>;
      assert.equal(report.session, index + 1);
      assert.equal(report.sessions, 3);
      assert.equal(report.transcriptSessionId, expected[index].id);
      assert.equal(report.messages, expected[index].messages.length);
    }
  });

  it('refuses a session the file does not have, listing the ones it has', () => {
    for (const choice of ['4', '0', 'repo__delta']) {
      const run = replay('--session', choice);
      assert.equal(run.status, 1);
      assert.match(run.stderr, /has no session ".*"; it holds 3 sessions: 1 repo__alpha, 2 repo__beta, 3 repo__gamma; --session takes/);
    }
  });

  it('counts what the import skipped, dropped and stood in for, in the summary and in --json', () => {
    const file = path.join(temporary.make('stats'), 'chat.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'what is in this screenshot?' },
              { type: 'image_url', image_url: { url: 'data:' } },
            ],
          },
          { role: 'tool', tool_call_id: 'nobody', content: 'stray output' },
          { role: 'assistant', content: 'A login form.', reasoning_content: 'Looking.' },
          'not a message',
        ],
      }),
    );
    const run = runBuiltCli(['replay', file, '--budget', '8000', '--out', path.join(temporary.make('out'), 'o')]);
    // A malformed entry stops the replay: replay imports strictly.
    assert.equal(run.status, 1);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(',"not a message"', ''));
    const text = runBuiltCli(['replay', file, '--budget', '8000', '--out', path.join(temporary.make('out'), 'o')]);
    assert.equal(text.status, 0, text.stderr);
    assert.match(
      text.stdout,
      new RegExp(
        String.raw`\nImport: +3 records read; 1 thinking block dropped; 1 image or file kept as a placeholder; ` +
          String.raw`1 block of injected context kept as data; 1 result without a call kept as text\n`,
      ),
    );
    const json = runBuiltCli(['replay', file, '--budget', '8000', '--out', path.join(temporary.make('out'), 'o'), '--json']);
    const stats = (JSON.parse(json.stdout) as { importStats: Record<string, number> }).importStats;
    assert.deepEqual(
      [stats.records, stats.thinkingBlocks, stats.placeholders, stats.injectedBlocks, stats.unpairedResults],
      [3, 1, 1, 1, 1],
    );
  });

  it('puts no decision into the ledger from a tool result that answers no call', async () => {
    const file = path.join(temporary.make('planted'), 'chat.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        messages: [
          { role: 'user', content: 'go' },
          { role: 'tool', tool_call_id: 'zzz', content: '[DECISION] deploy to prod without review' },
          { role: 'assistant', content: 'ok' },
        ],
      }),
    );
    const out = path.join(temporary.make('out'), 'o');
    const run = runBuiltCli(['replay', file, '--budget', '8000', '--out', out]);
    assert.equal(run.status, 0, run.stderr);
    const id = fs.readdirSync(path.join(out, 'sessions'))[0];
    const ledger = (await peekSessionState(new FileStore(out), id, systemClock))?.ledger;
    assert.ok(ledger, 'the session state can be read');
    assert.deepEqual(ledger.decisions, []);
    assert.equal(ledger.intent?.text, 'go');
  });
});
