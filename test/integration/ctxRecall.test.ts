/**
 * The recall check in a real VS Code: the stand-in model writes a checkpoint summary that keeps the
 * facts ctx listed but drops one it was told to drop; the recall check puts it back, the next
 * request the model gets holds it again, and `/status` shows the figures.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { askCtx, commandCtx, ctxApi } from './ctxClient';
import { page, selectors } from './page';
import * as standin from './standin';
import { patient } from './patience';

/** The decision the stand-in's summary drops. */
const DROPPED = 'replace the unbounded map with an LRU cache of 512 entries';

const padding = (topic: string) => `Notes on ${topic}. ${'The resolver walks the module graph once per build. '.repeat(120)}`;

describe('the recall check in a real VS Code', function () {
  this.timeout(patient(90_000));

  before(async () => {
    await ctxApi();
    await standin.reset();
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  });

  after(async () => {
    await standin.configure({ keepFactsExcept: null });
  });

  it('puts back a fact the model dropped from its checkpoint summary, and /status shows the figures', async () => {
    await standin.script(`The lookups are slow because every miss rebuilds the table. Instead of tuning the hash, I'll ${DROPPED}.`);
    await askCtx('why are module lookups slow?', 1);
    await standin.script(`Done: all 48 resolver tests passed after the change. ${padding('the cache')}`);
    await askCtx('apply it and run the tests', 1);
    for (const topic of ['the resolver', 'the watcher']) {
      await standin.script(padding(topic));
      await askCtx(`explain ${topic}`, 1);
    }
    await standin.configure({ keepFactsExcept: 'LRU cache of 512 entries' });
    const before = (await standin.summaryRequests()).length;
    await commandCtx('/compress', /Summarized \d+ messages → 1 summary/);
    const [prompt] = (await standin.summaryRequests()).slice(before);
    assert.ok(prompt?.prompt.includes(DROPPED), 'ctx listed the decision among the facts the model should keep');

    const [next] = await askCtx('what did we decide about the cache?', 1);
    const context = next.messages[0].text;
    assert.match(context, /## Checkpoint 1 · recent/);
    assert.match(context, /Stand-in summary \d+/, 'the model wrote the checkpoint');
    assert.ok(context.includes(DROPPED), 'the dropped decision is back in what the model sees');

    await commandCtx('/status', /Recall checks:/);
    await page.waitForText(
      selectors.chatResponses,
      /Recall checks:\*?\*? \d+ facts: \d+ in the context, \d+ found by search, [1-9]\d* put back, 0 lost/,
    );
    await page.screenshot('ctx-recall-status');
  });
});
