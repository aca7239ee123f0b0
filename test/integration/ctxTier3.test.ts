/**
 * Tier 3 end to end in a real VS Code: goals and decisions set from the chat, `/compress` and the
 * palette command making checkpoints that show in the tree, the stand-in model receiving the
 * ledger and the checkpoint in its next request, and `/fresh` continuing in a new chat.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { askCtx, commandCtx, ctxApi, waitFor } from './ctxClient';
import { page, selectors } from './page';
import { dismissNotifications, seeNotification } from './notifications';
import * as standin from './standin';
import { patient } from './patience';

const answer = (tokens: number, topic: string) =>
  `Notes on ${topic}. ${'The parser keeps every token position stable across edits. '.repeat(Math.ceil(tokens / 10))}`;

describe('Tier 3 in a real VS Code', function () {
  this.timeout(patient(90_000));
  let firstSession: string | undefined;

  before(async () => {
    await ctxApi();
    await standin.reset();
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  });

  it('keeps a goal and a locked decision set with /goal and /decide', async () => {
    await commandCtx('/goal Keep the public parser API unchanged', 'Goal added');
    firstSession = (await ctxApi()).currentSessionId();
    await commandCtx('/decide Positions are UTF-16 offsets', 'Decision locked');
    await vscode.commands.executeCommand('ctx.showTree');
    await page.waitForText(selectors.sideBar, 'Positions are UTF-16 offsets');
  });

  it('/compress makes a checkpoint, written by the model through vscode.lm, that shows in the tree', async () => {
    for (const topic of ['the lexer', 'the grammar', 'error recovery']) {
      await standin.script(answer(1200, topic));
      await askCtx(`explain ${topic}`, 1);
    }
    const before = (await standin.summaryRequests()).length;
    await commandCtx('/compress the grammar', /Summarized \d+ messages → 1 summary/);
    const prompts = (await standin.summaryRequests()).slice(before);
    assert.ok(prompts.length > 0, 'the checkpoint summary was asked of the chat model');
    assert.match(prompts[0].prompt, /FOCUS[\s\S]*the grammar/, 'the focus reached the summary prompt');
    assert.match(prompts[0].prompt, /Keep the public parser API unchanged/, 'the prompt is goal-aware');
    assert.ok(prompts[0].inConversation, "asked of the chat's model as the conversation's next request");
    assert.ok(prompts[0].messages.length > 1, 'after the conversation as @ctx sent it');
    await vscode.commands.executeCommand('ctx.showTree');
    await page.waitForText(selectors.sideBar, /Checkpoint 1 · Messages 1–\d+/);
    await page.screenshot('ctx-checkpoint-in-tree');
  });

  it('sends the stand-in model the ledger and the checkpoint in its next request', async () => {
    const [next] = await askCtx('what should we do next?', 1);
    const first = next.messages[0].text;
    assert.match(first, /# Context kept by ctx/);
    assert.match(first, /## Session ledger/);
    assert.match(first, /Keep the public parser API unchanged/);
    assert.match(first, /Positions are UTF-16 offsets/);
    assert.match(first, /## Checkpoint 1 · recent/);
    assert.match(first, /Stand-in summary \d+/, 'the model-written summary is the checkpoint');
    assert.match(first, /explain the lexer/, 'the summarized user message is kept verbatim');
    assert.ok(!next.messages.slice(1).some((m) => m.text.includes('Notes on the lexer')), 'the summarized answer left the live messages');
  });

  it('the palette\'s "Compress context" makes the next checkpoint and ages the first', async () => {
    for (const topic of ['tests', 'benchmarks']) {
      await standin.script(answer(1200, topic));
      await askCtx(`explain ${topic}`, 1);
    }
    await vscode.commands.executeCommand('ctx.compress');
    await seeNotification('Compressed the context', 20000);
    await dismissNotifications();
    await vscode.commands.executeCommand('ctx.showTree');
    await page.waitForText(selectors.sideBar, /Checkpoint 2 · Messages/);
    await page.waitForText(selectors.sideBar, /old · [\d,]+ tokens/);
    await commandCtx('/status', /Checkpoints made: 2/);
  });

  it('/recover finds what left the context, and /snapshot then /restore puts the context back', async () => {
    await commandCtx('/recover explain the lexer', /match(es)? for "explain the lexer"/);
    await commandCtx('/snapshot before the experiment', /Snapshot \*?\*?before the experiment/);
    await standin.script(answer(300, 'an experiment'));
    const [withExperiment] = await askCtx('try an experiment', 1);
    assert.ok(withExperiment.messages.some((m) => m.text.includes('try an experiment')));
    await commandCtx('/restore before the experiment', /Restored/);
    const [after] = await askCtx('where were we?', 1);
    assert.ok(!after.messages.some((m) => m.text.includes('Notes on an experiment')), 'the restored context no longer has the experiment');
    assert.ok(after.messages.some((m) => m.text.includes('where were we?')));
  });

  it('/fresh continues in a new chat whose session starts from the ledger and the checkpoint', async () => {
    const api = await ctxApi();
    const before = (await standin.requests()).length;
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@ctx /fresh' });
    const [sent] = await waitFor(
      'the first request of the fresh session',
      async () => {
        const all = await standin.requests();
        return all.length > before ? all.slice(before) : undefined;
      },
      30000,
    );
    await api.whenIdle();
    const freshSession = api.currentSessionId();
    assert.ok(freshSession && freshSession !== firstSession, 'a new session is current');
    const first = sent.messages[0].text;
    assert.match(first, /Keep the public parser API unchanged/);
    assert.match(first, /## Checkpoint 1/);
    assert.match(sent.messages[sent.messages.length - 1].text, /Continue from the checkpoint of the previous session/);
    await page.screenshot('ctx-fresh-session');
  });
});
