/**
 * ctx end to end in a real VS Code: the participant's tool loop against the scripted stand-in model,
 * offloading into workspace storage, the tree, the status bar's level and colour, "Compress
 * context" from the real command palette, and @ctx typed into the real Chat view.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { monitorEventLoopDelay } from 'perf_hooks';
import * as vscode from 'vscode';
import { askCtx, ctxApi, CTX_EXTENSION_ID, waitFor } from './ctxClient';
import { page, selectors } from './page';
import { dismissNotifications, seeNotification } from './notifications';
import { recordMetric } from './results';
import * as standin from './standin';
import { patient } from './patience';

/** The status-bar entry of ctx and its background, next to the theme's colour for `colorVar`. */
async function statusBarEntry(colorVar: string): Promise<{ text: string; background: string; themed: string }> {
  return page.evaluate(`(() => {
    const item = [...document.querySelectorAll('.statusbar-item')]
      .find((e) => /\\b(GREEN|YELLOW|ORANGE|RED|CRITICAL)\\b|ctx/.test(e.innerText) && e.id.includes('ctx.level'));
    const probe = document.createElement('div');
    probe.style.backgroundColor = 'var(${colorVar})';
    (document.querySelector('.monaco-workbench') || document.body).appendChild(probe);
    const themed = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return { text: item ? item.innerText : '', background: item ? getComputedStyle(item).backgroundColor : '', themed };
  })()`);
}

const blankText = (tokens: number) => `${'The quick brown fox jumps over the lazy dog. '.repeat(Math.ceil(tokens / 10))}`;

describe('ctx in a real VS Code', function () {
  this.timeout(patient(60_000));

  before(async () => {
    await ctxApi();
    await standin.reset();
    await vscode.workspace.getConfiguration('ctx').update('tools.allowed', ['ctxStandin_*'], vscode.ConfigurationTarget.Global);
  });

  it('activates with little main-thread work, and records how much', async () => {
    const api = await ctxApi();
    recordMetric('ctxActivateMainThreadMs', api.activationMs);
    assert.strictEqual(api.currentSessionId(), undefined, 'activation opens no session: sessions are read when first used');
  });

  it('registers every command it contributes', async () => {
    const manifest = vscode.extensions.getExtension(CTX_EXTENSION_ID)?.packageJSON as { contributes: { commands: { command: string }[] } };
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = manifest.contributes.commands.map((c) => c.command).filter((c) => !registered.has(c));
    assert.deepStrictEqual(missing, []);
  });

  it('says quietly that there is no session yet, and commands that cannot act say why', async () => {
    const entry = await statusBarEntry('--vscode-statusBarItem-warningBackground');
    assert.match(entry.text, /ctx/);
    await vscode.commands.executeCommand('ctx.compress');
    await seeNotification('There is no @ctx session yet');
    await dismissNotifications();
  });

  it("builds the tokenizer off the main thread: the host's longest stall meanwhile is recorded", async () => {
    const stalls = monitorEventLoopDelay({ resolution: 5 });
    stalls.enable();
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@ctx /status' });
    await page.waitForText(selectors.chatResponses, 'Context Status Report', 20000);
    await new Promise((r) => setTimeout(r, 2000)); // the worker builds the encoder meanwhile (about 100 ms)
    stalls.disable();
    recordMetric('hostLongestStallMsWhileTokenizerBuilds', stalls.max / 1e6);
    const api = (await ctxApi()) as unknown as { dashboardModel(): Promise<{ composition: { estimated: boolean } } | undefined> };
    const model = await waitFor('the current session', () => api.dashboardModel());
    assert.strictEqual(model.composition.estimated, false, 'the worker built the tokenizer: the figures are exact, not estimates');
  });

  it('offloads a tool result over the threshold into workspace storage and sends the model only the preview', async () => {
    const api = await ctxApi();
    await standin.script(
      [{ text: 'Reading the build log.' }, { toolCall: { callId: 'big-1', name: standin.BIG_RESULT_TOOL, input: { lines: 3000 } } }],
      [{ toolCall: { callId: 'small-1', name: standin.BIG_RESULT_TOOL, input: { lines: 5 } } }],
      'The build log shows 3 warnings.',
    );
    // The first turn builds the tokenizer (in a worker): record the longest main-thread stall meanwhile.
    const stalls = monitorEventLoopDelay({ resolution: 5 });
    stalls.enable();
    const sent = await askCtx('read the build log and tell me what failed', 3);
    stalls.disable();
    recordMetric('hostLongestStallMsDuringFirstTurn', stalls.max / 1e6);

    const sessionId = await waitFor('a current session', () => api.currentSessionId());
    const offloadedDir = path.join(api.storageRoot, 'sessions', sessionId, 'offloaded');
    const files = await waitFor('an offloaded file', () =>
      fs.existsSync(offloadedDir) && fs.readdirSync(offloadedDir).length > 0 ? fs.readdirSync(offloadedDir) : undefined,
    );
    assert.match(files[0], /_ctxStandin_bigResult_big-1_[0-9a-f]{8}\.txt$/);
    assert.strictEqual(fs.readFileSync(path.join(offloadedDir, files[0]), 'utf8').split('\n').length, 3000);

    const second = sent[1];
    const result = second.messages.flatMap((m) => m.parts).find((p) => p.type === 'toolResult' && p.callId === 'big-1');
    assert.ok(result && result.type === 'toolResult', 'the model got a result for big-1');
    const resultText = JSON.stringify(result.content);
    assert.match(resultText, /## Offloaded: ctxStandin_bigResult Result/);
    assert.ok(resultText.length < 6000, `the model got ${resultText.length} characters, not the whole log`);
    assert.ok(
      second.tools.some((t) => t.name === 'ctx_recover') && second.tools.some((t) => t.name === standin.BIG_RESULT_TOOL),
      'ctx offers its own tools and the allowed ones',
    );

    await vscode.commands.executeCommand('ctx.showTree');
    await page.waitForText(selectors.sideBar, 'ctxStandin_bigResult_big-1');
    await page.screenshot('ctx-offloaded-in-tree');
  });

  it('finds offloaded content from the "Recover from offloaded content" quick pick', async () => {
    void vscode.commands.executeCommand('ctx.recover');
    await waitFor('the recovery quick pick', async () =>
      (await page.attribute(`${selectors.quickInput} input`, 'placeholder')).some((p) => p?.startsWith('Search offloaded results'))
        ? true
        : undefined,
    );
    await page.type('step 002345');
    const row = await page.waitForText(selectors.quickInputRows, 'ctxStandin_bigResult', 15000);
    assert.match(row, /offloaded/);
    await page.screenshot('ctx-recover-quick-pick');
    await page.press('Escape');
  });

  it("shows the level rising in the status bar, with the theme's warning background at RED", async () => {
    const green = await statusBarEntry('--vscode-statusBarItem-warningBackground');
    assert.match(green.text, /GREEN/);
    // The stand-in's window is 16,000 tokens; the budget is 11,904. Each answer adds about 3,000 tokens.
    for (let i = 0; i < 3; i++) {
      await standin.script(blankText(3000));
      await askCtx(`tell me more, part ${i + 1}`, 1);
    }
    await page.waitForText(selectors.statusBar, /\bRED\b/, 15000);
    const red = await statusBarEntry('--vscode-statusBarItem-warningBackground');
    assert.match(red.text, /\d+% RED/);
    assert.strictEqual(red.background, red.themed, 'RED uses statusBarItem.warningBackground');
    await page.screenshot('ctx-status-bar-red');
  });

  it('"Compress context" typed into the real command palette changes what the model is sent next', async () => {
    const before = (await standin.requests()).slice(-1)[0];
    assert.ok(JSON.stringify(before.messages).includes('big-1'), 'before: the first tool call is still in context');
    await page.press('F1');
    await page.type('Compress context');
    await page.waitForText(selectors.quickInputRows, 'Context: Compress context');
    await page.press('Enter');
    await seeNotification('Compressed the context');
    await page.screenshot('ctx-compressed');
    await dismissNotifications();
    const [after] = await askCtx('and now?', 1);
    const sent = JSON.stringify(after.messages);
    assert.ok(!sent.includes('"big-1"'), 'after: the tool call before the watermark is gone');
    assert.ok(sent.includes('read the build log and tell me what failed'), 'after: the conversation text is kept');
  });

  it('answers @ctx typed into the real Chat view, and /status renders the report', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.open');
    await page.click(selectors.chatInput);
    await page.type('@ctx hello from the keyboard');
    await page.press('Enter');
    await page.waitForText(selectors.chatResponses, /Stand-in reply: "(@ctx )?hello from the keyboard"/, 20000);
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@ctx /status' });
    await page.waitForText(selectors.chatResponses, 'Context Status Report', 20000);
    await page.screenshot('ctx-chat-status');
  });
});
