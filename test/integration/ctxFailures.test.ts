/**
 * Failures in a real VS Code: a model error, a failing tool and a cancelled turn each end with a
 * plain explanation, and the session's archive keeps everything. Also the recovery quick pick.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { askCtx, ctxApi, waitFor } from './ctxClient';
import { page, selectors } from './page';
import * as standin from './standin';
import { patient } from './patience';

async function archiveText(): Promise<string> {
  const api = await ctxApi();
  const id = api.currentSessionId();
  assert.ok(id, 'there is a current session');
  return fs.readFileSync(path.join(api.storageRoot, 'sessions', id, 'archive.jsonl'), 'utf8');
}

describe('ctx when things go wrong, in a real VS Code', function () {
  this.timeout(patient(60_000));

  it('explains a blocked model request in plain words and keeps the message in the archive', async () => {
    await standin.script([{ error: 'rate limited', code: 'Blocked' }]);
    await askCtx('please summarize everything so far', 1);
    await page.waitForText(selectors.chatResponses, /blocked the request[\s\S]*intact/);
    assert.ok((await archiveText()).includes('please summarize everything so far'));
  });

  it("gives the model a failing tool's error as its result and goes on", async () => {
    await standin.script(
      [{ toolCall: { callId: 'fail-1', name: standin.FAILING_TOOL, input: { message: 'disk on fire' } } }],
      'The tool failed; I will try another way.',
    );
    const [, second] = await askCtx('run the failing tool', 2);
    const result = second.messages.flatMap((m) => m.parts).find((p) => p.type === 'toolResult' && p.callId === 'fail-1');
    assert.ok(result, 'the failed call got a result');
    assert.match(JSON.stringify(result), /disk on fire/);
    await page.waitForText(selectors.chatResponses, 'I will try another way');
  });

  it('stops a cancelled turn at once, even while the model keeps streaming, and archives the partial answer', async () => {
    const api = await ctxApi();
    await api.whenIdle();
    await standin.script([{ text: 'Partial answer before the stop. ' }, { delayMs: 20000 }, { text: 'never sent' }]);
    const before = (await standin.requests()).length;
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@ctx write a very long essay' });
    await waitFor('the request', async () => ((await standin.requests()).length > before ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    // The real stop button of the Chat view's input toolbar.
    await vscode.commands.executeCommand('notifications.clearAll');
    await page.click('.codicon-stop-circle');
    await api.whenIdle();
    await waitFor('the partial answer in the archive', async () =>
      (await archiveText()).includes('Partial answer before the stop.') ? true : undefined,
    );
    const archived = await archiveText();
    assert.ok(!archived.includes('never sent'), archived.slice(-1500));
  });
});
