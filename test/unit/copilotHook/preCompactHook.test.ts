import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { hookFileText, isCtxHookFile } from '../../../src/copilotHook/hookFile';
import { readHookInput } from '../../../src/copilotHook/hookStdin';
import { archiveTranscript } from '../../../src/copilotHook/transcriptCopy';
import { TempFolders } from '../support/tempFolder';
import { entry, transcript } from './copilotTranscripts';

/** The hook script as tsc compiled it next to this test (out/src/copilotHook). */
const SCRIPT = path.resolve(__dirname, '../../../src/copilotHook/preCompactHook.js');

/** What Copilot Chat 0.67 writes on a PreCompact hook's stdin. */
const hookInput = (transcriptPath: string, sessionId = 'b3c1d9e0-sess') =>
  JSON.stringify({
    timestamp: '2026-11-20T10:05:00.000Z',
    hook_event_name: 'PreCompact',
    session_id: sessionId,
    transcript_path: transcriptPath,
    trigger: 'auto',
  });

describe("ctx's PreCompact hook for Copilot Chat", () => {
  const temp = new TempFolders();
  after(() => temp.cleanUp());

  /** A workspace's storage folder: Copilot's storage and ctx's side by side, as VS Code lays them out. */
  let storage = '';
  /** Copilot's transcripts folder, and ctx's inbox, in that storage. */
  const transcripts = () => path.join(storage, 'GitHub.copilot-chat', 'transcripts');
  const ctxInbox = () => path.join(storage, 'ctx-dev.ctx', 'copilot-transcripts');
  beforeEach(async () => {
    storage = await temp.make();
    await fs.mkdir(transcripts(), { recursive: true });
  });

  async function copilotTranscript(text: string, name = 'b3c1d9e0-sess.jsonl'): Promise<string> {
    const file = path.join(transcripts(), name);
    await fs.writeFile(file, text);
    return file;
  }

  it("copies the transcript Copilot names into ctx's inbox, named by its session", async () => {
    const text = transcript('b3c1d9e0-sess', entry('user.message', { content: 'Rename the staging bucket to lantern-ops.' }));
    const source = await copilotTranscript(text);
    const inbox = ctxInbox();
    const outcome = await archiveTranscript(hookInput(source), inbox);
    assert.equal(outcome.archived, true, outcome.message);
    assert.equal(outcome.file, path.join(inbox, 'b3c1d9e0-sess.jsonl'));
    assert.equal(await fs.readFile(path.join(inbox, 'b3c1d9e0-sess.jsonl'), 'utf8'), text);
    assert.deepEqual(await fs.readdir(inbox), ['b3c1d9e0-sess.jsonl'], 'no partial copy is left beside it');
  });

  it('replaces the older copy of a session: the newest holds everything (Copilot only appends)', async () => {
    const first = transcript('s', entry('user.message', { content: 'one' }));
    const source = await copilotTranscript(first);
    const inbox = ctxInbox();
    await archiveTranscript(hookInput(source, 's'), inbox);
    await fs.appendFile(source, `${entry('user.message', { content: 'two' })}\n`);
    await archiveTranscript(hookInput(source, 's'), inbox);
    assert.equal(await fs.readFile(path.join(inbox, 's.jsonl'), 'utf8'), await fs.readFile(source, 'utf8'));
  });

  it('keeps a session id with path characters inside the inbox', async () => {
    const source = await copilotTranscript(transcript('x'));
    const inbox = ctxInbox();
    const outcome = await archiveTranscript(hookInput(source, '../../etc/passwd'), inbox);
    assert.equal(outcome.archived, true);
    assert.equal(path.dirname(outcome.file ?? ''), inbox);
    assert.deepEqual(await fs.readdir(inbox), ['__.._etc_passwd.jsonl']);
  });

  it('says in plain words why nothing was archived: no JSON, no transcript path, a missing file, not JSON Lines', async () => {
    const inbox = ctxInbox();
    const gone = path.join(transcripts(), 'gone.jsonl');
    const cases: [string, RegExp][] = [
      ['{oops', /not JSON/],
      [JSON.stringify({ hook_event_name: 'PreCompact' }), /no transcript_path/],
      [hookInput(gone), new RegExp(`no transcript at ${gone.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)],
      [hookInput(await copilotTranscript('{}', 'notes.txt')), /is not a JSON Lines transcript/],
    ];
    for (const [input, words] of cases) {
      const outcome = await archiveTranscript(input, inbox);
      assert.equal(outcome.archived, false);
      assert.match(outcome.message, words);
    }
    await assert.rejects(fs.readdir(inbox), 'no inbox is made for nothing');
  });

  it('runs as Copilot runs it, through the shell command of the hook file, and exits 0 even on bad input', async () => {
    // A folder with a space and a quote: the command must quote every path.
    storage = path.join(await temp.make(), "ctx's storage");
    await fs.mkdir(transcripts(), { recursive: true });
    const source = await copilotTranscript(transcript('s', entry('user.message', { content: 'hello' })));
    const inbox = ctxInbox();
    const file: unknown = JSON.parse(hookFileText({ runtime: process.execPath, script: SCRIPT, inbox }));
    const command = (file as { hooks: { PreCompact: { command: string }[] } }).hooks.PreCompact[0].command;
    const run = spawnSync(command, { shell: true, input: hookInput(source, 's'), encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, '{}', 'Copilot reads stdout as JSON');
    assert.equal(await fs.readFile(path.join(inbox, 's.jsonl'), 'utf8'), await fs.readFile(source, 'utf8'));

    const bad = spawnSync(command, { shell: true, input: 'not json', encoding: 'utf8' });
    assert.equal(bad.status, 0, 'exit code 2 would block Copilot: never');
    assert.match(bad.stderr, /nothing archived: the hook input is not JSON/);
  });

  describe('what it copies, and what it leaves', () => {
    it("copies nothing outside Copilot's own transcripts folder, and says so", async () => {
      const elsewhere = path.join(await temp.make(), 'keys');
      await fs.mkdir(elsewhere);
      const key = path.join(elsewhere, 'id_rsa.jsonl');
      await fs.writeFile(key, '-----BEGIN OPENSSH PRIVATE KEY-----\n');
      const inWorkspace = path.join(storage, 'workspace.jsonl');
      await fs.writeFile(inWorkspace, '{}\n');
      const nested = path.join(transcripts(), 'deeper');
      await fs.mkdir(nested);
      await fs.writeFile(path.join(nested, 's.jsonl'), '{}\n');
      for (const named of [key, inWorkspace, path.join(nested, 's.jsonl'), path.join(transcripts(), '..', '..', 'workspace.jsonl')]) {
        const outcome = await archiveTranscript(hookInput(named), ctxInbox());
        assert.equal(outcome.archived, false, named);
        assert.match(outcome.message, /nothing archived: .* is not in Copilot's transcripts folder/);
      }
      await assert.rejects(fs.readdir(ctxInbox()), 'nothing was written');
    });

    it('refuses a symbolic link and a hard link in that folder, whatever they point at', async () => {
      const secret = path.join(await temp.make(), 'credentials');
      await fs.writeFile(secret, '[default]\naws_secret_access_key = abc\n');
      const symlink = path.join(transcripts(), 'linked.jsonl');
      await fs.symlink(secret, symlink);
      const hardLink = path.join(transcripts(), 'hard.jsonl');
      await fs.link(secret, hardLink);
      for (const [named, words] of [
        [symlink, /is a symbolic link/],
        [hardLink, /is a hard link \(the file has 2 names\)/],
      ] as const) {
        const outcome = await archiveTranscript(hookInput(named, 'x'), ctxInbox());
        assert.equal(outcome.archived, false);
        assert.match(outcome.message, words);
      }
      await assert.rejects(fs.readdir(ctxInbox()), 'nothing was written');
    });

    it('removes a copy it could not put in place, and copies an earlier run killed half way left behind', async () => {
      const source = await copilotTranscript(transcript('s', entry('user.message', { content: 'hello' })));
      const inbox = ctxInbox();
      // A folder where the copy should go: the rename fails after the copy was written beside.
      await fs.mkdir(path.join(inbox, 's.jsonl', 'occupied'), { recursive: true });
      const failed = await archiveTranscript(hookInput(source, 's'), inbox);
      assert.equal(failed.archived, false);
      assert.deepEqual((await fs.readdir(inbox)).sort(), ['s.jsonl'], 'no .partial is left');

      await fs.rm(path.join(inbox, 's.jsonl'), { recursive: true });
      // A run killed before its rename: its process is gone (a pid no process has).
      await fs.writeFile(path.join(inbox, 'old.jsonl.4194302.partial'), 'half a cop');
      const running = path.join(inbox, `live.jsonl.${process.pid}.partial`);
      await fs.writeFile(running, 'being written');
      assert.equal((await archiveTranscript(hookInput(source, 's'), inbox)).archived, true);
      assert.deepEqual((await fs.readdir(inbox)).sort(), [path.basename(running), 's.jsonl'], "a live run's copy stays");
    });

    it('stops waiting for its input after its own time limit, and says so', async () => {
      const stdin = new PassThrough();
      stdin.write('{"hook_event_name": "PreCompact", ');
      await assert.rejects(readHookInput(stdin, 50), /the hook input did not end within 0\.05 seconds/);
      const ended = new PassThrough();
      ended.end('{"a": 1}');
      assert.equal(await readHookInput(ended, 1_000), '{"a": 1}');
    });
  });

  it("writes Copilot's hook file format, and knows its own file from another", () => {
    const text = hookFileText({
      runtime: '/usr/bin/node',
      script: '/ext/dist/copilotPreCompactHook.js',
      inbox: '/store/copilot-transcripts',
    });
    const file = JSON.parse(text) as { hooks: { PreCompact: Record<string, unknown>[] } };
    const [hook] = file.hooks.PreCompact;
    assert.equal(hook.type, 'command');
    assert.equal(hook.command, "'/usr/bin/node' '/ext/dist/copilotPreCompactHook.js' '/store/copilot-transcripts'");
    assert.equal(hook.windows, "& '/usr/bin/node' '/ext/dist/copilotPreCompactHook.js' '/store/copilot-transcripts'");
    assert.equal(typeof hook.timeout, 'number');
    assert.equal(isCtxHookFile(text), true);
    assert.equal(isCtxHookFile(JSON.stringify({ hooks: { PreCompact: [{ type: 'command', command: './save.sh' }] } })), false);
    assert.equal(isCtxHookFile('not json'), false);
  });
});
