/**
 * The context dashboard in a real VS Code, on the demo session (the conversation `npm start` plays):
 * its figures are the engine's own, a part of the bar names its tokens and share, an item pinned
 * survives `/compress`, an item dropped is found again with `/recover`, an undone compression gives
 * the previous context back, a previewed compression applies as shown, and the page updates in place.
 * Screenshots in a light, a dark and a high-contrast theme.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { askCtx, commandCtx, ctxApi, waitFor } from './ctxClient';
import { CTX_WEBVIEW_FRAMES, page, selectors } from './page';
import { recordMetric } from './results';
import * as standin from './standin';
import { patient } from './patience';

/** The engine's model as ctx's API gives it (the shape the test reads of it). */
interface Model {
  composition: { used: number; budget: number; usage: number; parts: { label: string; tokens: number }[] };
  items: { items: { id: string; label: string; preview: string; kind: string; actions: string[] }[] };
  checkpoints: unknown[];
}

const view = page.within(CTX_WEBVIEW_FRAMES);

async function model(): Promise<Model> {
  const api = (await ctxApi()) as unknown as { dashboardModel(): Promise<Model | undefined> };
  const m = await api.dashboardModel();
  assert.ok(m, 'there is a current session');
  return m;
}

const count = (n: number) => n.toLocaleString('en-US');

/** An answer of about `tokens` stand-in tokens that carries a phrase to look for. */
const answer = (phrase: string, tokens = 1500) =>
  `${phrase}. ${'The deployment checklist keeps every environment variable documented next to its default. '.repeat(Math.ceil(tokens / 14))}`;

/** Clicks a button in the dashboard and waits for the notice it leads to. */
async function clickAndWait(selector: string, notice: string | RegExp): Promise<void> {
  await view.click(selector, 15000);
  await view.waitForText('#notice', notice, 20000);
  await (await ctxApi()).whenIdle();
}

async function setTheme(theme: string): Promise<void> {
  await vscode.workspace.getConfiguration('workbench').update('colorTheme', theme, vscode.ConfigurationTarget.Global);
  await new Promise((r) => setTimeout(r, 1500));
}

describe('the context dashboard in a real VS Code', function () {
  this.timeout(patient(180_000));
  let themeBefore: string | undefined;

  before(async function () {
    if (!page.available) this.skip();
    await ctxApi();
    await standin.reset();
    themeBefore = vscode.workspace.getConfiguration('workbench').inspect<string>('colorTheme')?.globalValue;
    await vscode.commands.executeCommand('notifications.clearAll');
    const sessionId = await vscode.commands.executeCommand<string>('ctxStandin.playDemo');
    assert.ok(sessionId, 'the demo made a session');
    assert.strictEqual((await ctxApi()).currentSessionId(), sessionId);
  });

  after(async () => {
    await vscode.workspace.getConfiguration('workbench').update('colorTheme', themeBefore, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it("is reachable from /status's button and from the Context view's title bar", async () => {
    await vscode.commands.executeCommand('ctx.showTree');
    const titleActions = await page.attribute(
      `${selectors.sideBar} .title-actions .action-label, ${selectors.sideBar} .actions .action-label`,
      'aria-label',
    );
    assert.ok(
      titleActions.some((l) => l?.includes('Open Dashboard')),
      `the Context view's title bar offers the dashboard: ${titleActions.join(', ')}`,
    );
    await commandCtx('/status', 'Context Status Report');
    await page.click(`${selectors.chatResponses} .monaco-button:has-text("Open the dashboard")`);
    await view.waitForText('#composition h2', /Budget: [\d,]+ of [\d,]+ tokens used/, 20000);
  });

  it('opens from "Context: Open Dashboard" on the demo session, showing the engine\'s own figures', async () => {
    await vscode.commands.executeCommand('ctx.openDashboard');
    await view.waitForText('#composition h2', /Budget: [\d,]+ of [\d,]+ tokens used/, 20000);
    const api = (await ctxApi()) as unknown as { dashboardFirstPaintMs(): number | undefined };
    const painted = await waitFor('the first paint', () => api.dashboardFirstPaintMs());
    recordMetric('dashboardFirstPaintMs', painted);
    const engine = await model();
    const sum = engine.composition.parts.reduce((n, p) => n + p.tokens, 0);
    assert.strictEqual(sum, engine.composition.used, 'the parts add up to what the request sends');
    const shown = await waitFor('the figures of the engine on the page', async () => {
      const rows = await view.evaluate<string[][]>(
        `[...document.querySelectorAll('#composition .legend tbody tr')].map((r) => [...r.cells].map((c) => c.innerText.trim()))`,
      );
      const parts = rows.slice(0, -2);
      const expected = engine.composition.parts.map((p) => [p.label, count(p.tokens)]);
      return JSON.stringify(parts.map((r) => [r[0], r[1]])) === JSON.stringify(expected) ? rows : undefined;
    });
    assert.deepStrictEqual(shown[shown.length - 1][0], 'Answer reserve (apart, not used)');
    const heading = (await view.text('#composition h2'))[0];
    assert.ok(heading.includes(`${count(engine.composition.used)} of ${count(engine.composition.budget)} tokens used`), heading);
    const level = await page.waitForText(selectors.statusBar, /\d+% (GREEN|YELLOW|ORANGE|RED|CRITICAL)/);
    assert.ok(level.includes(`${Math.floor(engine.composition.usage * 100)}% `), `the status bar agrees: ${level}`);
    assert.ok(engine.checkpoints.length > 0, "the demo's /compress left a checkpoint");
    await view.waitForText('#checkpoints', /Checkpoint 1 · recent/);
  });

  it('names a part of the bar with its tokens and share when it is hovered or focused, and the arrow keys move along the bar', async () => {
    const labels = await view.attribute('.bar rect[tabindex]', 'aria-label');
    assert.ok(labels.length >= 3 && labels.every((l) => l && /tokens/.test(l)), `every part is named: ${labels.join(' | ')}`);
    // Hovering: the pointer over a part (the page channel has no hover of its own).
    await view.evaluate(`document.querySelector('.bar rect.free').dispatchEvent(new MouseEvent('mouseover', { bubbles: true })), true`);
    await view.waitForText('#tip', /^Free: [\d,]+ tokens, .*% of the budget$/);
    // Focusing: the first part, then the arrow keys.
    await view.evaluate(`document.querySelector('.bar rect.part').focus(), true`);
    const first = await view.waitForText('#tip', /: [\d,]+ tokens, .*% of the budget/);
    await page.press('ArrowRight');
    const second = await view.waitForText('#tip', /: [\d,]+ tokens/);
    assert.notStrictEqual(second, first, 'the next part is named');
    assert.ok(
      labels.some((l) => l?.startsWith('Answer reserve')),
      'the reserve is shown apart',
    );
  });

  it('pins an item, and /compress keeps it verbatim in the ledger', async () => {
    const pinned = (await model()).items.items.find((i) => i.kind === 'message' && i.actions.includes('pin'));
    assert.ok(pinned, 'an assistant message can be pinned');
    const text = pinned.preview.slice(0, 60);
    await clickAndWait(`button[data-action="pin"][data-item="${pinned.id}"]`, /Pinned the assistant message/);
    for (const topic of ['amber-lantern', 'cobalt-harbour']) {
      await standin.script(answer(topic));
      await askCtx(`note the ${topic} details`, 1);
    }
    await commandCtx('/compress', /Summarized \d+ messages → 1 summary/);
    assert.ok(!(await model()).items.items.some((i) => i.id === pinned.id), 'the message itself was summarized away');
    const [next] = await askCtx('what is pinned?', 1);
    const context = next.messages[0].text;
    assert.match(context, /### Pinned/);
    assert.ok(context.includes(text), 'the pinned message is in the ledger, verbatim');
    await view.waitForText('#items', /Ledger · pinned assistant message/);
  });

  it('drops an item, which leaves the context and is found again with /recover', async () => {
    await standin.script(answer('zebra-quartz-7731 is the staging password rotation ticket', 300));
    await askCtx('which ticket rotates the staging password?', 1);
    const item = await waitFor('the answer listed as an item', async () =>
      (await model()).items.items.find((i) => i.kind === 'message' && i.preview.includes('zebra-quartz-7731')),
    );
    await clickAndWait(`button[data-action="drop"][data-item="${item.id}"]`, /Dropped the assistant message/);
    const [next] = await askCtx('and now?', 1);
    assert.ok(!next.messages.some((m) => m.text.includes('zebra-quartz-7731')), 'the dropped answer is not sent');
    await commandCtx('/recover zebra-quartz-7731', /match(es)? for "zebra-quartz-7731"/);
    // The answer itself may still be drawn above: the response read is the one that holds the search's header.
    const found = await page.waitForText(
      selectors.chatResponses,
      /match(?:es)? for "zebra-quartz-7731"[\s\S]*zebra-quartz-7731 is the staging password/,
    );
    assert.match(found, /archive/);
  });

  it('undoes a compression: the context before it comes back', async () => {
    await standin.script(answer('marigold-tangent-42 marks the schema freeze', 300));
    await askCtx('when is the schema freeze?', 1);
    for (const topic of ['quiet-meadow', 'silver-orchard']) {
      await standin.script(answer(topic));
      await askCtx(`note the ${topic} details`, 1);
    }
    await commandCtx('/compress', /Summarized \d+ messages → 1 summary/);
    const [compressed] = await askCtx('still there?', 1);
    const live = (r: standin.RecordedRequest) =>
      r.messages.slice(1).some((m) => m.text.includes('marigold-tangent-42 marks the schema freeze'));
    assert.ok(!live(compressed), 'after /compress the answer is summarized');
    await view.waitForText('#header', 'Undo last compression');
    await clickAndWait('button[data-action="undo"]', /Undid the last compression/);
    const [after] = await askCtx('is it back?', 1);
    assert.ok(live(after), 'after the undo the answer is a live message again');
    await view.waitForText('#checkpoints', /Undone and dropped checkpoints/);
  });

  it('previews a compression, then applies exactly what it showed', async () => {
    for (const topic of ['north-quay', 'south-quay']) {
      await standin.script(answer(topic));
      await askCtx(`note the ${topic} details`, 1);
    }
    const before = (await model()).checkpoints.length;
    await view.click('button[data-action="preview"]');
    const shown = await view.waitForText('#preview', /The new checkpoint: Messages? [\d–]+, [\d,]+ tokens/, 30000);
    assert.match(shown, /Before: [\d,]+ tokens .* → after: [\d,]+ tokens/);
    await page.screenshot('dashboard-preview');
    await clickAndWait('#preview button[data-action="apply"]', /Compressed the context as previewed/);
    assert.strictEqual((await model()).checkpoints.length, before + 1);
  });

  it('updates in place while the session runs, without reloading the page', async () => {
    await view.evaluate('(window.ctxTestMarker = "still the same page", true)');
    const before = (await view.text('#header'))[0];
    await standin.script(answer('a fresh answer'));
    await askCtx('one more question', 1);
    const after = await view.waitForText('#header', /messages in the context/, 10000);
    await waitFor('the header to change', async () => ((await view.text('#header'))[0] !== before ? true : undefined));
    assert.strictEqual(await view.evaluate('window.ctxTestMarker'), 'still the same page');
    assert.ok(after.length > 0);
  });

  it('looks right in a light, a dark and a high-contrast theme', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    for (const [theme, name] of [
      ['Default Light Modern', 'dashboard-light'],
      ['Default Dark Modern', 'dashboard-dark'],
      ['Default High Contrast', 'dashboard-high-contrast'],
    ] as const) {
      await setTheme(theme);
      await view.evaluate('(window.scrollTo(0, 0), true)');
      const background = await view.computedStyle('body', 'background-color');
      const text = await view.computedStyle('body', 'color');
      assert.notStrictEqual(background, text, `${theme}: text stands out from the background`);
      await page.screenshot(name);
    }
    await view.evaluate(`(document.getElementById('timeline').scrollIntoView(), true)`);
    await page.screenshot('dashboard-high-contrast-timeline');
    await setTheme('Default Dark Modern');
    await view.evaluate(`(document.getElementById('items').scrollIntoView(), true)`);
    await page.screenshot('dashboard-dark-items');
    await view.evaluate(`(document.getElementById('timeline').scrollIntoView(), true)`);
    await page.screenshot('dashboard-dark-timeline');
  });
});
