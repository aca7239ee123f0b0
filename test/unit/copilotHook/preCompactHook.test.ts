import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { hookFileText, isCtxHookFile } from '../../../src/copilotHook/hookFile';
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

  async function copilotTranscript(text: string, name = 'b3c1d9e0-sess.jsonl'): Promise<string> {
    const folder = path.join(await temp.make(), 'transcripts');
    await fs.mkdir(folder);
    const file = path.join(folder, name);
    await fs.writeFile(file, text);
    return file;
  }

  it("copies the transcript Copilot names into ctx's inbox, named by its session", async () => {
    const text = transcript('b3c1d9e0-sess', entry('user.message', { content: 'Rename the staging bucket to lantern-ops.' }));
    const source = await copilotTranscript(text);
    const inbox = path.join(await temp.make(), 'copilot-transcripts');
    const outcome = await archiveTranscript(hookInput(source), inbox);
    assert.equal(outcome.archived, true, outcome.message);
    assert.equal(outcome.file, path.join(inbox, 'b3c1d9e0-sess.jsonl'));
    assert.equal(await fs.readFile(path.join(inbox, 'b3c1d9e0-sess.jsonl'), 'utf8'), text);
    assert.deepEqual(await fs.readdir(inbox), ['b3c1d9e0-sess.jsonl'], 'no partial copy is left beside it');
  });

  it('replaces the older copy of a session: the newest holds everything (Copilot only appends)', async () => {
    const first = transcript('s', entry('user.message', { content: 'one' }));
    const source = await copilotTranscript(first);
    const inbox = await temp.make();
    await archiveTranscript(hookInput(source, 's'), inbox);
    await fs.appendFile(source, `${entry('user.message', { content: 'two' })}\n`);
    await archiveTranscript(hookInput(source, 's'), inbox);
    assert.equal(await fs.readFile(path.join(inbox, 's.jsonl'), 'utf8'), await fs.readFile(source, 'utf8'));
  });

  it('keeps a session id with path characters inside the inbox', async () => {
    const source = await copilotTranscript(transcript('x'));
    const inbox = await temp.make();
    const outcome = await archiveTranscript(hookInput(source, '../../etc/passwd'), inbox);
    assert.equal(outcome.archived, true);
    assert.equal(path.dirname(outcome.file ?? ''), inbox);
    assert.deepEqual(await fs.readdir(inbox), ['__.._etc_passwd.jsonl']);
  });

  it('says in plain words why nothing was archived: no JSON, no transcript path, a missing file, not JSON Lines', async () => {
    const inbox = path.join(await temp.make(), 'inbox');
    const cases: [string, RegExp][] = [
      ['{oops', /not JSON/],
      [JSON.stringify({ hook_event_name: 'PreCompact' }), /no transcript_path/],
      [hookInput('/nowhere/gone.jsonl'), /no transcript at \/nowhere\/gone\.jsonl/],
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
    const source = await copilotTranscript(transcript('s', entry('user.message', { content: 'hello' })));
    // A folder with a space and a quote: the command must quote every path.
    const inbox = path.join(await temp.make(), "ctx's inbox");
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
