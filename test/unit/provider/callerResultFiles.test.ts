import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { CallerResultFiles, callerStorageRoots } from '../../../src/vscode/provider/callerResultFiles';
import { TempFolders } from '../support/tempFolder';

describe("reading the files Copilot's agent wrote its large results to", () => {
  const temp = new TempFolders();
  after(() => temp.cleanUp());

  /** ctx's workspace storage and Copilot's beside it, as VS Code lays them out, plus a workspace and a folder outside. */
  async function layout() {
    const base = await temp.make();
    const ctxStorage = path.join(base, 'workspaceStorage', 'ab12', 'ctx-dev.ctx');
    const session = path.join(base, 'workspaceStorage', 'ab12', 'GitHub.copilot-chat', 'chat-session-resources', 's1');
    const resources = path.join(session, 'call_7');
    const workspace = path.join(base, 'project');
    const outside = path.join(base, 'elsewhere');
    for (const folder of [ctxStorage, resources, workspace, outside]) await fs.mkdir(folder, { recursive: true });
    const reader = new CallerResultFiles(() => callerStorageRoots([ctxStorage]), 1_000);
    const problem = async (file: string, callId = 'call_7') => {
      const read = await reader.readResultFile(file, callId);
      return 'problem' in read ? read.problem : `read: ${read.text}`;
    };
    return { session, resources, workspace, outside, reader, problem };
  }

  it("reads the file Copilot wrote for the call, in its resources folder beside ctx's storage", async () => {
    const { session, resources, reader } = await layout();
    await fs.writeFile(path.join(resources, 'content.txt'), 'error TS2304: Cannot find name');
    assert.deepEqual(await reader.readResultFile(path.join(resources, 'content.txt'), 'call_7'), {
      text: 'error TS2304: Cannot find name',
    });
    // VS Code may add a suffix to the call's folder that the id lacks.
    const suffixed = path.join(session, 'toolu_01__vscode-1732000000');
    await fs.mkdir(suffixed);
    await fs.writeFile(path.join(suffixed, 'content.json'), '{"rows":3}');
    assert.deepEqual(await reader.readResultFile(path.join(suffixed, 'content.json'), 'toolu_01'), { text: '{"rows":3}' });
  });

  it("refuses a file the note names anywhere else: the workspace's .env, a file of another call, another name", async () => {
    const { session, resources, workspace, outside, problem } = await layout();
    await fs.writeFile(path.join(workspace, '.env'), 'DB_PASSWORD=hunter2hunter2');
    await fs.writeFile(path.join(outside, 'secret.txt'), 'key');
    await fs.writeFile(path.join(resources, 'notes.txt'), 'other');
    await fs.writeFile(path.join(resources, 'content.txt'), 'the result of call_7');
    await fs.mkdir(path.join(session, 'call_8'));
    await fs.writeFile(path.join(session, 'call_8', 'content.txt'), 'the result of call_8');
    assert.match(await problem(path.join(workspace, '.env')), /is not a result file the caller wrote/);
    assert.match(await problem(path.join(outside, 'secret.txt')), /is not a result file the caller wrote/);
    assert.match(await problem(path.join(resources, 'notes.txt')), /is not a result file the caller wrote/);
    assert.match(await problem(path.join(session, 'call_8', 'content.txt')), /is the result file of another tool call/);
    assert.match(
      await problem(path.join(resources, '..', '..', 's1', 'call_7', '..', '..', '..', '..', 'project', '.env')),
      /not a result file/,
    );
  });

  it('refuses a link of any kind: a symbolic link as the file or on the way, a hard link to a file elsewhere', async () => {
    const { session, resources, outside, problem } = await layout();
    const key = path.join(outside, 'credentials');
    await fs.writeFile(key, 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY');
    await fs.symlink(key, path.join(resources, 'content.txt'));
    assert.match(await problem(path.join(resources, 'content.txt')), /goes through a link/);
    await fs.mkdir(path.join(outside, 'call_9'));
    await fs.writeFile(path.join(outside, 'call_9', 'content.txt'), 'elsewhere');
    await fs.symlink(path.join(outside, 'call_9'), path.join(session, 'call_9'));
    assert.match(await problem(path.join(session, 'call_9', 'content.txt'), 'call_9'), /goes through a link/);
    await fs.mkdir(path.join(session, 'call_10'));
    await fs.link(key, path.join(session, 'call_10', 'content.txt'));
    assert.match(await problem(path.join(session, 'call_10', 'content.txt'), 'call_10'), /has other names \(a hard link\)/);
  });

  it('refuses, in plain words, a binary, a large or a missing file and a relative path', async () => {
    const { session, resources, problem } = await layout();
    await fs.writeFile(path.join(resources, 'content.txt'), Buffer.from([0x89, 0x50, 0x00, 0x47]));
    assert.match(await problem(path.join(resources, 'content.txt')), /is binary, not text/);
    await fs.writeFile(path.join(resources, 'content.json'), 'x'.repeat(1_001));
    assert.match(await problem(path.join(resources, 'content.json')), /is 1001 bytes, over the 1000 ctx reads/);
    assert.match(await problem(path.join(session, 'call_11', 'content.txt'), 'call_11'), /does not exist/);
    assert.match(await problem('content.txt'), /not an absolute path/);
  });
});
