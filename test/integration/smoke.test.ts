import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { page, selectors } from './page';
import { dismissNotifications, notificationsShown, seeNotification } from './notifications';
import { recordMetric } from './results';
import * as standin from './standin';

const CTX_EXTENSION_ID = 'ctx-dev.ctx';
/** Copilot Chat, built into VS Code since 1.13x. */
const COPILOT_CHAT_ID = 'github.copilot-chat';

describe('smoke: ctx inside a real VS Code', () => {
  it('is installed and activates', async () => {
    const extension = vscode.extensions.getExtension(CTX_EXTENSION_ID);
    assert.ok(extension, `${CTX_EXTENSION_ID} is not loaded`);
    recordMetric('ctxLoadedFrom', extension.extensionPath);
    recordMetric('ctxActiveBeforeTest', String(extension.isActive));
    const before = performance.now();
    await extension.activate();
    recordMetric('ctxActivationMs', performance.now() - before);
    assert.strictEqual(extension.isActive, true);
  });

  it("says once where ctx's models are when it runs beside Copilot, and nothing without Copilot", async () => {
    if (vscode.extensions.getExtension(COPILOT_CHAT_ID)) {
      await seeNotification('Other Models', 20000);
      await page.screenshot('ctx-models-guidance');
    } else {
      assert.doesNotMatch(await notificationsShown(), /Other Models/, 'no model picker to point at without Copilot');
    }
    await dismissNotifications();
  });

  it('finds the stand-in model by vendor', async () => {
    const model = await standin.model();
    assert.strictEqual(model.vendor, standin.STANDIN_VENDOR);
    assert.strictEqual(model.family, standin.STANDIN_FAMILY);
    assert.ok(model.maxInputTokens > 0, `maxInputTokens ${model.maxInputTokens}`);
    assert.strictEqual(await model.countTokens('abcdefgh'), 2, 'stand-in counts characters / 4');
  });

  it('answers with the scripted reply and records the request', async () => {
    const model = await standin.model();
    await standin.reset();
    await standin.script([{ text: 'Hello ' }, { text: 'from the script.' }]);
    const source = new vscode.CancellationTokenSource();
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('ping')], {}, source.token);
    const { text } = await standin.collect(response);
    assert.strictEqual(text, 'Hello from the script.');
    const [recorded, ...more] = await standin.requests();
    assert.strictEqual(more.length, 0);
    assert.strictEqual(recorded.scripted, true);
    assert.deepStrictEqual(
      recorded.messages.map((m) => [m.role, m.text]),
      [['user', 'ping']],
    );
  });

  it('streams a scripted tool call, and answers deterministically when nothing is scripted', async () => {
    const model = await standin.model();
    await standin.reset();
    await standin.script([{ toolCall: { callId: 'call-1', name: standin.BIG_RESULT_TOOL, input: { lines: 3 } } }]);
    const source = new vscode.CancellationTokenSource();
    const first = await standin.collect(await model.sendRequest([vscode.LanguageModelChatMessage.User('run it')], {}, source.token));
    assert.deepStrictEqual(
      first.toolCalls.map((c) => [c.callId, c.name, c.input]),
      [['call-1', standin.BIG_RESULT_TOOL, { lines: 3 }]],
    );
    const second = await standin.collect(await model.sendRequest([vscode.LanguageModelChatMessage.User('hello there')], {}, source.token));
    assert.match(second.text, /^Stand-in reply: "hello there"/);
  });

  it('provides a tool with a very large result', async () => {
    const result = await vscode.lm.invokeTool(standin.BIG_RESULT_TOOL, { input: { lines: 1000 }, toolInvocationToken: undefined });
    const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    assert.strictEqual(text.split('\n').length, 1000);
    assert.ok(text.length > 50000, `only ${text.length} characters`);
  });

  describe('the page', function () {
    before(function () {
      if (!page.available) this.skip();
    });

    it('saves a screenshot of the workbench', async () => {
      const file = await page.screenshot('smoke-workbench');
      assert.ok(fs.statSync(file).size > 1000, `${file} is too small`);
    });

    it('shows a status bar item the host created', async () => {
      const item = vscode.window.createStatusBarItem('ctx.smokeProbe', vscode.StatusBarAlignment.Left);
      try {
        item.text = 'ctx-smoke-probe';
        item.show();
        const shown = await page.waitForText(selectors.statusBar, 'ctx-smoke-probe', 10000);
        assert.ok(shown.includes('ctx-smoke-probe'));
        const background = await page.computedStyle(selectors.statusBar, 'background-color');
        assert.match(background, /^rgba?\(/);
      } finally {
        item.dispose();
      }
    });

    it("shows the Chat view, answered by the default participant: the stand-in's, or built-in Copilot's through the stand-in model", async () => {
      await standin.reset();
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: 'hello from the smoke test' });
      if (vscode.extensions.getExtension(COPILOT_CHAT_ID)?.isActive) {
        // VS Code 1.139+: Copilot Chat is built in and owns the default participant; it sends the selected model,
        // the stand-in, the message inside its own prompt.
        await page.waitForText(selectors.chatResponses, /Stand-in reply/, 20000);
        const requests = await standin.requests();
        assert.ok(
          requests.some((r) => JSON.stringify(r.messages).includes('hello from the smoke test')),
          `no request to the stand-in model carried the message (${requests.length} requests)`,
        );
      } else {
        const answer = await page.waitForText(selectors.chatResponses, 'You said: hello from the smoke test', 15000);
        assert.match(answer, /default participant/);
      }
      await page.screenshot('smoke-chat');
      await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    });

    it('opens the command palette with F1 and lists ctx commands', async () => {
      await page.press('F1');
      try {
        await page.waitForText(selectors.quickInput, /Results/, 5000);
        await page.type('Show context status');
        const row = await page.waitForText(selectors.quickInputRows, 'Show context status', 5000);
        assert.match(row, /Context: Show context status/);
      } finally {
        await page.press('Escape');
      }
    });
  });
});
