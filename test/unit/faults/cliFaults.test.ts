import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildCli, CLI_BUNDLE, REPOSITORY_ROOT, runBuiltCli, TemporaryFolders, type CliRun } from '../cli/builtCli';
import { chatText, chatWithTools, nestedArray } from './cliTranscripts';

/** Exit status 1, one line on stderr, no stack. */
function assertOneLineRefusal(run: CliRun, reason: RegExp): void {
  assert.equal(run.status, 1, `exit status 1 (stderr: ${run.stderr})`);
  assert.match(run.stderr, /^ctx: [^\n]+\n$/, `one line: ${run.stderr}`);
  assert.match(run.stderr, reason);
}

/** Runs the command line under a shell that sets limits first (`ulimit -f`, an ignored SIGXFSZ). */
function runLimited(shellPrefix: string, args: readonly string[]): CliRun {
  const run = spawnSync('sh', ['-c', `${shellPrefix}; exec "$0" "$@"`, process.execPath, CLI_BUNDLE, ...args], {
    cwd: REPOSITORY_ROOT,
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('the command line on hostile input and failing storage', function () {
  this.timeout(120_000);
  const temporary = new TemporaryFolders();
  let folder: string;
  const write = (name: string, text: string) => {
    const file = path.join(folder, name);
    fs.writeFileSync(file, text);
    return file;
  };
  before(() => {
    buildCli();
    folder = temporary.make('faults');
  });
  after(() => temporary.removeAll());

  it('exits 1 with one line on JSON nested 4,500 levels and more, as a document or as a line', () => {
    const doc = write('deep.json', `{"messages":[{"role":"user","content":${nestedArray(4_500)}}]}`);
    assertOneLineRefusal(
      runBuiltCli(['replay', doc, '--budget', '8000', '--out', path.join(folder, 'd1')]),
      /nests more than 1,000 levels deep/,
    );
    const record = (id: string, extra = '') =>
      `{"type":"user","uuid":"${id}","message":{"role":"user","content":[{"type":"text","text":"hi"}]}${extra}}`;
    const lines = write('deep.jsonl', `${record('u1')}\n${record('u2', `,"x":${nestedArray(20_000)}`)}\n`);
    assertOneLineRefusal(
      runBuiltCli(['replay', lines, '--budget', '8000', '--out', path.join(folder, 'd2')]),
      /line 2: .*nests more than 1,000 levels deep/,
    );
  });

  it('keeps tool arguments nested 5,000 levels deep as their text, and replays', () => {
    const messages = chatWithTools(1);
    const deep = {
      ...messages[1],
      tool_calls: [
        { id: 'call_1', type: 'function' as const, function: { name: 'run_command', arguments: `{"a":${nestedArray(5_000)}}` } },
      ],
    };
    const file = write('deepArgs.json', chatText([messages[0], deep, ...messages.slice(2)]));
    const run = runBuiltCli(['replay', file, '--budget', '8000', '--out', path.join(folder, 'd3'), '--json']);
    assert.equal(run.status, 0, run.stderr);
  });

  it('exits 1 with one line on a timestamp past the last date (8.64e15 ms)', () => {
    const messages = chatWithTools(1).map((m, i) => (i === 0 ? { ...m, timestamp: 8.64e15 + 1 } : m));
    const file = write('future.json', chatText(messages));
    assertOneLineRefusal(
      runBuiltCli(['replay', file, '--budget', '8000', '--out', path.join(folder, 't1')]),
      /has the time 8640000000000001, past the last date/,
    );
  });

  it('exits 1 with one line when the disk fills (a file size limit), leaving no half line in the archive', () => {
    const file = write('big.json', chatText(chatWithTools(30, 20_000)));
    const out = path.join(folder, 'full');
    const run = runLimited("trap '' XFSZ; ulimit -f 400", ['replay', file, '--budget', '8000', '--out', out]);
    assertOneLineRefusal(run, /Could not (append to|write) .*: the file is larger than the system allows\./);
    const [session] = fs.readdirSync(path.join(out, 'sessions'));
    const archive = fs.readFileSync(path.join(out, 'sessions', session, 'archive.jsonl'), 'utf8');
    assert.ok(archive.endsWith('\n'), 'the archive ends with a whole line');
    for (const line of archive.trim().split('\n')) JSON.parse(line);
    assert.ok(!fs.existsSync(path.join(out, 'replay.lock')), 'the lock is released');
  });

  it('says "permission denied" for a folder it may not write, never "no such file"', () => {
    const readOnly = path.join(folder, 'readonly');
    fs.mkdirSync(readOnly);
    const file = write('small.json', chatText(chatWithTools(2)));
    fs.chmodSync(folder, 0o755);
    fs.chmodSync(file, 0o644);
    fs.chmodSync(readOnly, 0o555);
    // root may write anywhere: it meets the refusal as an unprivileged user would.
    const run = process.getuid?.() === 0 ? (args: readonly string[]) => runAsNobody(temporary.make('nobody'), args) : runBuiltCli;
    for (const out of [readOnly, path.join(readOnly, 'inside')]) {
      const result = run(['replay', file, '--budget', '8000', '--out', out]);
      assertOneLineRefusal(result, /Cannot (use|create) .*readonly.*: permission denied\./);
      assert.doesNotMatch(result.stderr, /no such file/);
    }
  });

  it('skips a folder and a link inside offloaded/ when searching, with a note, instead of crashing', () => {
    const out = path.join(folder, 'search');
    const offloaded = path.join(out, 'sessions', 's-20260101-000000-abc123', 'offloaded');
    fs.mkdirSync(path.join(offloaded, 'a-folder'), { recursive: true });
    fs.writeFileSync(path.join(offloaded, 'result.txt'), 'the inventory build fails in part three\n');
    fs.symlinkSync('/etc/passwd', path.join(offloaded, 'passwd.txt'));
    const run = runBuiltCli(['search', out, 'inventory']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /result\.txt/);
    assert.match(run.stderr, /a-folder is a folder, not an offloaded file; it is not searched/);
    assert.match(run.stderr, /passwd\.txt is a link, which is never followed; it is not searched/);
    assert.doesNotMatch(run.stdout + run.stderr, /root:/);
  });

  it('refuses a second replay into the same new --out while the first runs, and the first finishes whole', async () => {
    // Long enough that the first replay still runs when the second has started, on a busy machine too.
    const file = write('long.json', chatText(chatWithTools(80, 3_000)));
    const out = path.join(folder, 'one-out');
    // The lock is taken before the tokenizer is built, so even a short replay holds it a while.
    const first = spawn(process.execPath, [CLI_BUNDLE, 'replay', file, '--budget', '100000', '--out', out], {
      cwd: REPOSITORY_ROOT,
      stdio: 'ignore',
    });
    const firstDone = new Promise<number | null>((resolve) => first.on('exit', resolve));
    for (let i = 0; i < 400 && !fs.existsSync(path.join(out, 'replay.lock')); i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(fs.existsSync(path.join(out, 'replay.lock')), 'the first replay holds the lock');
    assertOneLineRefusal(
      runBuiltCli(['replay', file, '--budget', '100000', '--out', out]),
      new RegExp(
        String.raw`Cannot replay into .*one-out: Another ctx replay \(process \d+ on .*\) is writing here; ` +
          String.raw`only one writer at a time is allowed\. Wait for it to end, or choose another --out\.`,
      ),
    );
    assert.equal(await firstDone, 0);
    assert.deepEqual(fs.readdirSync(out).sort(), ['context.md', 'replay.json', 'sessions']);
  });
});

/**
 * Runs the command line as `nobody`. The repository may be cloned where nobody cannot reach (root's
 * home, a 0700 folder), so the bundle and its token ranks are copied into `folder` (under the
 * system's temporary folder) and opened to all first; the run starts there.
 */
function runAsNobody(folder: string, args: readonly string[]): CliRun {
  const bundle = path.join(folder, 'cli.js');
  fs.copyFileSync(CLI_BUNDLE, bundle);
  fs.cpSync(path.join(path.dirname(CLI_BUNDLE), 'ranks'), path.join(folder, 'ranks'), { recursive: true });
  for (const entry of [folder, path.join(folder, 'ranks')]) fs.chmodSync(entry, 0o755);
  for (const file of [bundle, ...fs.readdirSync(path.join(folder, 'ranks')).map((n) => path.join(folder, 'ranks', n))]) {
    fs.chmodSync(file, 0o644);
  }
  const run = spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, bundle, ...args], { cwd: folder, encoding: 'utf8' });
  if (run.error) throw new Error(`runuser (util-linux) is needed to test as an unprivileged user: ${run.error.message}`);
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
