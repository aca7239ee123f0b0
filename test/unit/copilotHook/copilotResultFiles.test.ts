import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { findCopilotResultFile } from '../../../src/copilotHook/copilotResultFiles';
import { TempFolders } from '../support/tempFolder';

describe('the files Copilot Chat wrote its large tool results to', () => {
  const temp = new TempFolders();
  after(() => temp.cleanUp());

  /** Copilot's storage with one written result per entry: `[session folder, call folder, file name]`. */
  async function storage(...written: [string, string, string][]): Promise<string> {
    const root = path.join(await temp.make(), 'GitHub.copilot-chat');
    for (const [session, call, file] of written) {
      await fs.mkdir(path.join(root, 'chat-session-resources', session, call), { recursive: true });
      await fs.writeFile(path.join(root, 'chat-session-resources', session, call, file), `${call}/${file}`);
    }
    return root;
  }

  it("finds a call's content.txt or content.json, also under the suffix VS Code adds to a call id", async () => {
    const root = await storage(
      ['sess-1', 'call_a', 'content.txt'],
      ['sess-1', 'call_b__vscode-1764230000', 'content.json'],
      ['sess-1', 'call_b', 'schema.json'],
    );
    assert.equal(
      await findCopilotResultFile([root], 'sess-1', 'call_a'),
      path.join(root, 'chat-session-resources', 'sess-1', 'call_a', 'content.txt'),
    );
    assert.equal(
      await findCopilotResultFile([root], 'sess-1', 'call_b'),
      path.join(root, 'chat-session-resources', 'sess-1', 'call_b__vscode-1764230000', 'content.json'),
      'the schema beside is not the content',
    );
  });

  it('makes the ids file-safe as Copilot does, and finds nothing for a small result, another session or no storage', async () => {
    const root = await storage(['s_1', 'toolu_01_x', 'content.txt']);
    assert.ok(await findCopilotResultFile([root], 's/1', 'toolu:01:x'));
    assert.equal(await findCopilotResultFile([root], 's_1', 'call_small'), undefined);
    assert.equal(await findCopilotResultFile([root], 'other', 'toolu_01_x'), undefined);
    assert.equal(await findCopilotResultFile([path.join(root, 'missing')], 's_1', 'toolu_01_x'), undefined);
  });
});
