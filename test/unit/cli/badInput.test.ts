import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TRANSCRIPTS_FOLDER } from '../import/realTranscripts';
import { buildCli, runBuiltCli, TemporaryFolders, type CliRun } from './builtCli';

const SMALL_TRANSCRIPT = path.join(TRANSCRIPTS_FOLDER, 'cline__sdk_session.messages.json');

/** Exit status 1, the reason on stderr, nothing on stdout and no stack trace. */
function assertRefused(run: CliRun, reason: RegExp): void {
  assert.equal(run.status, 1, `exit status 1 (stderr: ${run.stderr})`);
  assert.equal(run.stdout, '');
  assert.match(run.stderr, /^ctx: /);
  assert.match(run.stderr, reason);
  assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
}

describe('the command line on bad input', function () {
  this.timeout(60_000);
  const temporary = new TemporaryFolders();
  let folder: string;
  before(() => {
    buildCli();
    folder = temporary.make('bad');
  });
  after(() => temporary.removeAll());

  it('prints the usage with --help and exits 0', () => {
    for (const args of [['--help'], ['-h'], ['help'], ['replay', '--help']]) {
      const run = runBuiltCli(args);
      assert.equal(run.status, 0);
      assert.ok(
        run.stdout.includes(
          '  node dist/cli.js replay <transcript> --budget <tokens> --out <dir> [--ceiling <tokens>] [--format <name>] [--json]\n',
        ),
      );
      assert.ok(run.stdout.includes('  node dist/cli.js search <dir> "<query>" [--top <n>] [--json]\n'));
      assert.equal(run.stderr, '');
    }
  });

  it('refuses no command and an unknown command, pointing at --help', () => {
    assertRefused(runBuiltCli([]), /No command given\.\nRun "node dist\/cli\.js --help" for usage\./);
    assertRefused(runBuiltCli(['frobnicate']), /Unknown command "frobnicate"; the commands are replay and search\./);
  });

  it('refuses a missing transcript file and a folder', () => {
    assertRefused(
      runBuiltCli(['replay', path.join(folder, 'nope.jsonl'), '--budget', '1000', '--out', path.join(folder, 'o1')]),
      /Cannot read .*nope\.jsonl: no such file or folder\./,
    );
    assertRefused(
      runBuiltCli(['replay', folder, '--budget', '1000', '--out', path.join(folder, 'o2')]),
      /is a folder, not a transcript file\./,
    );
    assert.ok(!fs.existsSync(path.join(folder, 'o1')), 'nothing is written for bad input');
  });

  it('refuses a file that is no transcript, and says which formats it knows', () => {
    const file = path.join(folder, 'notes.txt');
    fs.writeFileSync(file, 'hello, this is not a transcript\n');
    assertRefused(
      runBuiltCli(['replay', file, '--budget', '1000', '--out', path.join(folder, 'o3')]),
      /notes\.txt: Unrecognised transcript \(.*\); expected one of: Claude Code session JSONL/,
    );
  });

  it('refuses a malformed transcript with the line number', () => {
    const lines = fs
      .readFileSync(path.join(TRANSCRIPTS_FOLDER, 'cc__vscode-copilot-chat__30530d66-37fb-4f3b-aa5f-d92b6a8afae2.jsonl'), 'utf8')
      .split('\n')
      .slice(0, 10);
    lines.splice(4, 0, '{"type":"user","message":{"role":"user","content":"cut off');
    const file = path.join(folder, 'broken.jsonl');
    fs.writeFileSync(file, lines.join('\n'));
    assertRefused(
      runBuiltCli(['replay', file, '--budget', '10000', '--out', path.join(folder, 'o4')]),
      /broken\.jsonl: Malformed transcript at line 5: /,
    );
  });

  it('refuses a budget or a top that is not a positive whole number, and a ceiling that is not a whole number', () => {
    for (const budget of ['abc', '0', '-5', '1.5', '12k', '']) {
      assertRefused(
        runBuiltCli(['replay', SMALL_TRANSCRIPT, '--budget', budget, '--out', path.join(folder, 'o5')]),
        /--budget must be a positive whole number, not "/,
      );
    }
    assertRefused(runBuiltCli(['search', folder, 'query', '--top', 'ten']), /--top must be a positive whole number, not "ten"\./);
    for (const ceiling of ['abc', '-5', '1.5', '']) {
      assertRefused(
        runBuiltCli(['replay', SMALL_TRANSCRIPT, '--budget', '1000', '--ceiling', ceiling, '--out', path.join(folder, 'o5')]),
        /--ceiling must be a whole number \(0 or more\), not "/,
      );
    }
  });

  it('refuses missing, repeated, unknown and valueless flags and an unknown format', () => {
    assertRefused(runBuiltCli(['replay', SMALL_TRANSCRIPT, '--out', path.join(folder, 'o6')]), /replay needs --budget <tokens>/);
    assertRefused(runBuiltCli(['replay', SMALL_TRANSCRIPT, '--budget', '1000']), /replay needs --out <dir>/);
    assertRefused(
      runBuiltCli(['replay', SMALL_TRANSCRIPT, '--budget', '1000', '--budget', '2000', '--out', path.join(folder, 'o6')]),
      /--budget is given twice\./,
    );
    assertRefused(
      runBuiltCli(['replay', SMALL_TRANSCRIPT, '--budget', '1000', '--out', path.join(folder, 'o6'), '--fast']),
      /Unknown option --fast for replay/,
    );
    assertRefused(runBuiltCli(['replay', SMALL_TRANSCRIPT, '--out', path.join(folder, 'o6'), '--budget']), /--budget needs a value\./);
    assertRefused(
      runBuiltCli(['replay', SMALL_TRANSCRIPT, '--budget', '1000', '--out', path.join(folder, 'o6'), '--format', 'word']),
      new RegExp(
        String.raw`Unknown format "word"; --format takes one of ` +
          String.raw`claude-code, openai, anthropic, mini-swe-agent, openhands, swe-agent, copilot-chat, copilot-chatreplay, codex, gemini-cli, ` +
          String.raw`opencode, copilot-cli, pi, aider\.`,
      ),
    );
    assertRefused(
      runBuiltCli(['replay', '--budget', '1000', '--out', path.join(folder, 'o6')]),
      /replay needs <transcript>; none was given\./,
    );
    assertRefused(
      runBuiltCli(['replay', SMALL_TRANSCRIPT, 'extra', '--budget', '1000', '--out', path.join(folder, 'o6')]),
      /replay takes 1 argument/,
    );
  });

  it('refuses a transcript read as a format it is not', () => {
    assertRefused(
      runBuiltCli(['replay', SMALL_TRANSCRIPT, '--budget', '1000', '--out', path.join(folder, 'o7'), '--format', 'claude-code']),
      /holds no messages to replay \(read as claude-code\)|Unrecognised transcript/,
    );
  });

  it('never writes into a folder that holds something other than a replay', () => {
    const out = path.join(folder, 'busy');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'keep.txt'), 'mine');
    assertRefused(runBuiltCli(['replay', SMALL_TRANSCRIPT, '--budget', '1000', '--out', out]), /is not empty and holds no earlier replay/);
    assert.deepEqual(fs.readdirSync(out), ['keep.txt']);
  });

  it('refuses to search a folder without a replay, a missing folder and an empty query', () => {
    assertRefused(runBuiltCli(['search', folder, 'anything']), /holds no replayed session/);
    assertRefused(runBuiltCli(['search', path.join(folder, 'missing'), 'anything']), /Cannot search .*missing: no such file or folder\./);
    assertRefused(runBuiltCli(['search', folder, '  ']), /The query is empty/);
  });
});
