/**
 * What a user sees during a long agent run, in a real VS Code: one @ctx request in which the model calls a
 * tool two dozen times in the stand-in's small window. The answer says each kind of thing ctx did once, with
 * its count (read from the page and checked against the session log); the CRITICAL message names the level
 * before and after; the status bar's tooltip keeps the highest level of the answer; the "Details" link
 * opens the session log; and the status bar spins while a compression runs.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { askCtx, ctxApi, waitFor } from './ctxClient';
import { page, selectors } from './page';
import { recordMetric } from './results';
import * as standin from './standin';
import { patient } from './patience';

/** Lines of the stand-in's log per call (about 37 tokens a line): some over the offload threshold, most under it. */
const LINES_PER_CALL = [78, 300, 60, 78, 800, 70, 78, 150, 74, 78, 420, 66, 78, 78, 200, 72, 78, 78, 560, 64, 78, 78, 120, 76];
const FINAL_ANSWER = 'All parts of the build log are read.';
/** What the model says each round, about 600 tokens: text stays in the context until a checkpoint takes it. */
const notes = (part: number) =>
  `Part ${part}: ${'The compiler repeats the same deprecation warning for every module it builds. '.repeat(50)}`;
const LEVEL = '(GREEN|YELLOW|ORANGE|RED|CRITICAL)';

/** The session log's lines (`- <time> · <name or kind> · <detail>`). */
function sessionLog(storageRoot: string, sessionId: string): string[] {
  const file = path.join(storageRoot, 'sessions', sessionId, 'session-log.md');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

const logged = (lines: readonly string[], kind: string) => lines.filter((l) => l.split(' · ')[1] === kind).length;
const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);
const count = (text: string, pattern: RegExp) => (text.match(new RegExp(pattern.source, 'g')) ?? []).length;

/** The ctx status-bar item's text and whether it shows the spinning icon. */
async function statusItem(): Promise<{ text: string; spinning: boolean }> {
  return page.evaluate(`(() => {
    const item = document.querySelector(${JSON.stringify(selectors.ctxStatusBarItem)});
    return { text: item ? item.innerText : '', spinning: !!(item && item.querySelector('.codicon-sync.codicon-modifier-spin')) };
  })()`);
}

describe('a long agent run, as the user sees it', function () {
  this.timeout(patient(120_000));
  let roundsBefore: number | undefined;
  let answerText = '';
  let sessionId = '';

  before(async () => {
    await ctxApi();
    await standin.reset();
    const ctx = vscode.workspace.getConfiguration('ctx');
    roundsBefore = ctx.inspect<number>('tools.maxRounds')?.globalValue;
    await ctx.update('tools.maxRounds', LINES_PER_CALL.length + 2, vscode.ConfigurationTarget.Global);
    await ctx.update('tools.allowed', ['ctxStandin_*'], vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  });

  after(async () => {
    await vscode.workspace.getConfiguration('ctx').update('tools.maxRounds', roundsBefore, vscode.ConfigurationTarget.Global);
    await standin.configure({ summaryDelayMs: 0 });
  });

  it('says each kind of event once in the answer, with counts that match the session log', async () => {
    const api = await ctxApi();
    await standin.script(
      ...LINES_PER_CALL.map((lines, i): standin.ScriptReply => [
        { text: notes(i + 1) },
        { toolCall: { callId: `part-${i + 1}`, name: standin.BIG_RESULT_TOOL, input: { lines } } },
      ]),
      FINAL_ANSWER,
    );
    const started = Date.now();
    const sent = await askCtx('read every part of the build log, one call per part', LINES_PER_CALL.length + 1, 90_000);
    recordMetric('longRunSeconds', (Date.now() - started) / 1000);
    assert.ok(
      sent.every((r) => r.inputTokens <= 16_000),
      `every request fits the stand-in's window: ${sent.map((r) => r.inputTokens).join(', ')}`,
    );

    sessionId = await waitFor('a current session', () => api.currentSessionId());
    const log = sessionLog(api.storageRoot, sessionId);
    const offloads = logged(log, 'offload');
    const checkpoints = logged(log, 'checkpoint-created');
    const critical = logged(log, 'rollover-complete');
    recordMetric('longRunOffloads', offloads);
    recordMetric('longRunCheckpoints', checkpoints);
    recordMetric('longRunCriticalSteps', critical);
    assert.ok(offloads >= 2 && checkpoints >= 2 && critical >= 2, `the run exercised ctx: ${offloads}, ${checkpoints}, ${critical}`);

    // The answer is rendered progressively: wait for its last part, the fresh-session button.
    answerText = await page.waitForText(
      selectors.chatResponses,
      /Compressed \d+ times in this answer[\s\S]*Start a fresh session from the checkpoint/,
      20000,
    );
    await page.screenshot('ctx-long-run-answer');
    assert.ok(answerText.includes(FINAL_ANSWER), 'this is the answer of the long run');
    assert.equal(count(answerText, /Compressed \d+ times in this answer/), 1, answerText);
    assert.match(answerText, new RegExp(`\\b${offloads} results offloaded\\b`));
    assert.match(answerText, new RegExp(`\\b${checkpoints} checkpoints\\b`));
    assert.equal(count(answerText, /Context CRITICAL/), 1, 'the CRITICAL message once');
    assert.match(answerText, new RegExp(`Context CRITICAL ${times(critical)} in this answer`));
    assert.equal(count(answerText, /Context: /), 0, 'progress lines do not stay in the answer');
    // VS Code draws a row for each tool call ("Using …" on 1.104, "Finished with 1 step" on 1.139): those are the
    // workbench's, not ctx's words.
    const repeated = answerText
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => !/^Using\b/.test(l) && !/^Finished with \d+ steps?$/.test(l))
      .filter((l, i, all) => l.length > 0 && all.indexOf(l) !== i);
    assert.deepStrictEqual(repeated, [], 'no line of the answer repeats');
  });

  it('names the level before and after in the CRITICAL message, and offers a fresh session once', async () => {
    assert.match(answerText, new RegExp(`reached \\d+% \\(CRITICAL\\), compressed to \\d+% \\(${LEVEL}\\)`));
    assert.doesNotMatch(answerText, /CRITICAL\.? The context is at \d+% of the budget/);
    const buttons = await page.text(`${selectors.chatResponses} .monaco-button`);
    assert.equal(buttons.filter((b) => b.includes('Start a fresh session')).length, 1, buttons.join(' | '));
  });

  it("shows the answer's highest level and the last compression in the status bar's tooltip", async () => {
    await page.hover(selectors.ctxStatusBarItem);
    const tooltip = await page.waitForText(selectors.hover, /Highest level in the last answer/, 10000);
    assert.match(tooltip, new RegExp(`Highest level in the last answer: reached \\d+% \\(CRITICAL\\), compressed to \\d+% \\(${LEVEL}\\)`));
    assert.match(tooltip, /Last compression: .+ tokens saved/);
    await page.screenshot('ctx-status-bar-peak-tooltip');
    await page.press('Escape');
  });

  it('opens the session log from the answer\'s "Details" link', async () => {
    // The answer is taller than the Chat view on 1.139 (a row for each step): scroll to the link first.
    const details = `${selectors.chatResponses} a:text-is("Details")`;
    await page.reveal(details);
    await page.click(details);
    const opened = await waitFor('the session log in an editor', () =>
      vscode.window.visibleTextEditors.find((e) => e.document.uri.path.endsWith(`${sessionId}/session-log.md`)),
    );
    assert.match(opened.document.getText(), /checkpoint-created/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('spins the status bar icon while a compression runs, and goes back to the level when it ends', async () => {
    const api = await ctxApi();
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    // More than the latest messages ctx keeps intact, so that the compression has something to summarize.
    for (const topic of ['the linker', 'the loader', 'symbols', 'relocations', 'sections']) {
      await standin.script(`About ${topic}: ${'Symbols resolve in the order the objects are listed. '.repeat(100)}`);
      await askCtx(`explain ${topic}`, 1);
    }
    // One summary, slow enough to watch the status bar while it is written.
    await standin.configure({ summaryDelayMs: 2500 });
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@ctx /compress' });
    const during = await waitFor('the spinning icon', async () => {
      const item = await statusItem();
      return item.spinning ? item : undefined;
    });
    assert.match(during.text, /compressing/);
    await page.screenshot('ctx-status-bar-compressing');
    await api.whenIdle();
    const after = await waitFor('the level again', async () => {
      const item = await statusItem();
      return item.spinning ? undefined : item;
    });
    assert.match(after.text, new RegExp(`\\d+% ${LEVEL}$`));
    await page.waitForText(selectors.chatResponses, /Compressed the context from \d+% \(\w+\) to \d+% \(\w+\)/);
  });
});
