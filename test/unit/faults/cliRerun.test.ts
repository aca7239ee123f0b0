/**
 * A replay cut short (killed at a seeded moment, or stopped by a full disk) is run again into the
 * same --out: the folder is recognised as a replay's and started over, and a folder holding
 * anything a replay does not write is never emptied.
 */
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildCli, CLI_BUNDLE, REPOSITORY_ROOT, runBuiltCli, TemporaryFolders } from '../cli/builtCli';
import { seededRandom } from '../tokens/seededRandom';
import { chatText, chatWithTools } from './cliTranscripts';

const KILLS = 3;
const FINISHED = ['context.md', 'replay.json', 'sessions'];

describe('running a replay again into the --out of one cut short', function () {
  this.timeout(180_000);
  const temporary = new TemporaryFolders();
  let folder: string;
  let transcript: string;
  before(() => {
    buildCli();
    folder = temporary.make('rerun');
    transcript = path.join(folder, 'long.json');
    fs.writeFileSync(transcript, chatText(chatWithTools(60, 3_000)));
  });
  after(() => {
    temporary.removeAll();
    console.log(`      figures: ${KILLS} replays killed (kill -9) and 1 stopped by a file size limit, each run again into its --out`);
  });

  const rerun = (out: string) => runBuiltCli(['replay', transcript, '--budget', '8000', '--out', out]);

  it('starts over a replay killed (kill -9) at seeded moments, and says it did', async () => {
    const random = seededRandom(2405);
    for (let k = 0; k < KILLS; k++) {
      const out = path.join(folder, `killed-${k}`);
      const child = spawn(process.execPath, [CLI_BUNDLE, 'replay', transcript, '--budget', '8000', '--out', out], {
        cwd: REPOSITORY_ROOT,
        stdio: 'ignore',
      });
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      for (let i = 0; i < 500 && !fs.existsSync(path.join(out, 'replay.lock')); i++) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 100 + Math.floor(random() * 200)));
      child.kill('SIGKILL');
      await exited;
      const cutShort = !fs.existsSync(path.join(out, 'replay.json'));
      const run = rerun(out);
      assert.equal(run.status, 0, `kill ${k}: ${run.stderr}`);
      if (cutShort) assert.match(run.stderr, /was cut short .*; it is started over\./);
      assert.deepEqual(fs.readdirSync(out).sort(), FINISHED, `kill ${k}`);
      assert.equal(fs.readdirSync(path.join(out, 'sessions')).length, 1, 'one session: the cut-short one is gone');
    }
  });

  it('starts over a replay stopped by a full disk (a file size limit)', () => {
    const out = path.join(folder, 'full');
    const limited = spawnSync(
      'sh',
      [
        '-c',
        `trap '' XFSZ; ulimit -f 300; exec "$0" "$@"`,
        process.execPath,
        CLI_BUNDLE,
        'replay',
        transcript,
        '--budget',
        '8000',
        '--out',
        out,
      ],
      {
        cwd: REPOSITORY_ROOT,
        encoding: 'utf8',
      },
    );
    assert.equal(limited.status, 1, limited.stderr);
    assert.ok(!fs.existsSync(path.join(out, 'replay.json')));
    const run = rerun(out);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stderr, /An earlier replay into .*full was cut short \(killed, or stopped by a full disk\); it is started over\./);
    assert.deepEqual(fs.readdirSync(out).sort(), FINISHED);
  });

  it('starts over what a replay cut short by an older ctx left: only session folders', () => {
    const out = path.join(folder, 'older');
    fs.mkdirSync(path.join(out, 'sessions', 's-20260101-000000-abc123', 'offloaded'), { recursive: true });
    fs.writeFileSync(path.join(out, 'sessions', 's-20260101-000000-abc123', 'archive.jsonl'), '');
    const run = rerun(out);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(!fs.existsSync(path.join(out, 'sessions', 's-20260101-000000-abc123')));
  });

  it('never empties a folder holding anything a replay does not write, marker or not', () => {
    for (const [name, extra] of [
      ['user-file', 'notes.txt'],
      ['user-in-sessions', path.join('sessions', 'notes.txt')],
    ] as const) {
      const out = path.join(folder, name);
      fs.mkdirSync(path.join(out, 'sessions'), { recursive: true });
      fs.writeFileSync(path.join(out, 'replay.unfinished'), 'A ctx replay started here\n');
      fs.writeFileSync(path.join(out, extra), 'my own notes');
      const run = rerun(out);
      assert.equal(run.status, 1, run.stderr);
      assert.match(run.stderr, /is not empty and holds no earlier replay/);
      assert.equal(fs.readFileSync(path.join(out, extra), 'utf8'), 'my own notes', `${name}: the user's file is kept`);
    }
  });
});
