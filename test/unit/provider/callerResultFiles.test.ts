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
    const resources = path.join(base, 'workspaceStorage', 'ab12', 'GitHub.copilot-chat', 'chat-session-resources', 's1', 'call_7');
    const workspace = path.join(base, 'project');
    const outside = path.join(base, 'elsewhere');
    for (const folder of [ctxStorage, resources, workspace, outside]) await fs.mkdir(folder, { recursive: true });
    const reader = new CallerResultFiles(() => [workspace, ...callerStorageRoots([ctxStorage])], 1_000);
    return { resources, workspace, outside, reader };
  }

  it("reads a text file in Copilot's storage beside ctx's, or in the workspace", async () => {
    const { resources, workspace, reader } = await layout();
    await fs.writeFile(path.join(resources, 'content.txt'), 'error TS2304: Cannot find name');
    await fs.writeFile(path.join(workspace, 'out.log'), 'done');
    assert.deepEqual(await reader.readResultFile(path.join(resources, 'content.txt')), { text: 'error TS2304: Cannot find name' });
    assert.deepEqual(await reader.readResultFile(path.join(workspace, 'out.log')), { text: 'done' });
  });

  it('refuses, in plain words, a file outside both, a link leading out, a binary, a large or a missing file', async () => {
    const { resources, outside, reader } = await layout();
    await fs.writeFile(path.join(outside, 'secret.txt'), 'key');
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(resources, 'link.txt'));
    await fs.writeFile(path.join(resources, 'image.bin'), Buffer.from([0x89, 0x50, 0x00, 0x47]));
    await fs.writeFile(path.join(resources, 'big.txt'), 'x'.repeat(1_001));
    const problem = async (file: string) => {
      const read = await reader.readResultFile(file);
      return 'problem' in read ? read.problem : `read: ${read.text}`;
    };
    assert.match(await problem(path.join(outside, 'secret.txt')), /neither in the workspace nor in the caller's storage/);
    assert.match(await problem(path.join(resources, 'link.txt')), /neither in the workspace nor in the caller's storage/);
    assert.match(await problem(path.join(resources, 'image.bin')), /is binary, not text/);
    assert.match(await problem(path.join(resources, 'big.txt')), /is 1001 bytes, over the 1000 ctx reads/);
    assert.match(await problem(path.join(resources, 'gone.txt')), /does not exist/);
    assert.match(await problem('content.txt'), /not an absolute path/);
  });
});
