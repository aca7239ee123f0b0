import * as assert from 'node:assert/strict';
import { EVENT_KIND_LABELS, type EventKind } from '../../../src/engine/model/compressionEvent';
import { DEFAULT_THRESHOLDS } from '../../../src/engine/levels';
import { timelineHtml } from '../../../src/vscode/dashboard/sections/timelineHtml';
import type { TimelinePointView } from '../../../src/engine/dashboard/timelineModel';
import { dashboardPage } from '../../../src/vscode/dashboard/dashboardPage';
import { isWebviewMessage } from '../../../src/vscode/dashboard/dashboardProtocol';
import { percent } from '../../../src/vscode/dashboard/html';
import { noSessionHtml } from '../../../src/vscode/dashboard/sections/headerHtml';
import { changedSections, renderSections } from '../../../src/vscode/dashboard/dashboardSections';
import { call, result } from '../support/builders';
import { furnishedSession, RESERVE, ROOMY_BUDGET } from './dashboardFixtures';

const HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>';

async function sectionsOf(extra: () => Promise<unknown> = async () => undefined) {
  const rig = await furnishedSession();
  await extra.call(rig);
  await rig.session.add([call('c-evil', 'fetch', { url: HOSTILE }), result('c-evil', `${HOSTILE}\n`.repeat(20), false, 'fetch')]);
  await rig.session.prepare(ROOMY_BUDGET);
  const model = await rig.session.dashboard({ budget: ROOMY_BUDGET, reserveTokens: RESERVE });
  return { model, sections: renderSections(model, { kind: 'none' }, DEFAULT_THRESHOLDS) };
}

describe('dashboard page', () => {
  it('escapes everything from the conversation: no markup of its own reaches the page', async () => {
    const { sections } = await sectionsOf();
    const all = Object.values(sections).join('');
    assert.ok(!all.includes('<script'), 'no script tag');
    assert.ok(!all.includes('<img'), 'no image tag');
    assert.ok(all.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'), 'the text is shown, escaped');
  });

  it('names every part of the bar with its tokens and share, and shows the reserve apart as never used', async () => {
    const { model, sections } = await sectionsOf();
    for (const p of model.composition.parts) {
      assert.match(sections.composition, new RegExp(`aria-label="${p.label}: [\\d,]+ tokens, (&lt;)?[\\d.]+% of the budget"`), p.label);
    }
    assert.match(
      sections.composition,
      /class="reserve"[^>]*aria-label="Answer reserve: 4,096 tokens kept for the model&#39;s answer, beside the budget, never used/,
    );
    for (const level of ['YELLOW', 'ORANGE', 'RED', 'CRITICAL']) assert.ok(sections.composition.includes(`>${level}</text>`), level);
    assert.match(sections.composition, /role="group" aria-label="Composition of the budget/);
  });

  it('gives every item button a name that says what it acts on', async () => {
    const { sections } = await sectionsOf();
    assert.match(sections.items, /data-action="drop" data-item="result:c-read"[^>]*aria-label="Drop: read_file result"/);
    assert.match(sections.items, /data-action="offload" data-item="result:c-read"/);
  });

  it('has a strict Content-Security-Policy: nothing from the network, scripts only by nonce, no inline style', () => {
    const page = dashboardPage(
      { header: 'h', preview: '', composition: '', items: '', timeline: '', checkpoints: '' },
      {
        cspSource: 'vscode-webview://abc',
        scriptUri: 'vscode-webview://abc/dist/dashboard.js',
        styleUri: 'vscode-webview://abc/media/dashboard.css',
        nonce: 'n0nce',
      },
    );
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(page)?.[1] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-n0nce'/);
    assert.match(csp, /style-src vscode-webview:\/\/abc/);
    assert.ok(!csp.includes('unsafe'), 'no unsafe-inline or unsafe-eval');
    assert.ok(!/https?:/.test(csp), 'no network source');
    assert.match(page, /<script nonce="n0nce" src="vscode-webview:\/\/abc\/dist\/dashboard.js"><\/script>/);
    assert.ok(!/ style="/.test(page), 'no inline style attribute');
  });

  it('sends only the parts of the page that changed', async () => {
    const rig = await furnishedSession();
    await rig.session.prepare(ROOMY_BUDGET);
    const before = renderSections(
      await rig.session.dashboard({ budget: ROOMY_BUDGET, reserveTokens: RESERVE }),
      { kind: 'none' },
      DEFAULT_THRESHOLDS,
    );
    assert.deepEqual(changedSections(before, before), {});
    await rig.session.pin('message:a-answer');
    const after = renderSections(
      await rig.session.dashboard({ budget: ROOMY_BUDGET, reserveTokens: RESERVE }),
      { kind: 'none' },
      DEFAULT_THRESHOLDS,
    );
    const changed = Object.keys(changedSections(before, after));
    assert.ok(changed.includes('items'), 'the item now says it is pinned');
    assert.ok(!changed.includes('timeline') && !changed.includes('checkpoints'), `only what changed (${changed.join(', ')})`);
  });

  it('rounds shares down, so none reads as past a threshold it has not reached', () => {
    assert.equal(percent(0.8496), '84%');
    assert.equal(percent(0.0449), '4.4%');
    assert.equal(percent(0.0004), '<0.1%');
    assert.equal(percent(0), '0.0%');
  });

  it('accepts only well-formed messages from the webview', () => {
    assert.equal(isWebviewMessage({ type: 'action', action: 'drop', item: 'message:m1' }), true);
    assert.equal(isWebviewMessage({ type: 'painted', ms: 12.5 }), true);
    assert.equal(isWebviewMessage({ type: 'action', action: 'rm -rf', item: 'x' }), false);
    assert.equal(isWebviewMessage({ type: 'action', action: 'drop', item: 42 }), false);
    assert.equal(isWebviewMessage({ type: 'painted', ms: 'soon' }), false);
    assert.equal(isWebviewMessage('drop'), false);
  });
});

describe('dashboard timeline ticks', () => {
  const point = (request: number) => ({
    request,
    at: request,
    before: 900,
    after: 500,
    level: 'ORANGE' as const,
    budget: 1000,
    requests: 1,
  });
  const marker = (request: number, kind: EventKind) => ({
    request,
    kind,
    label: EVENT_KIND_LABELS[kind],
    count: 1,
    compressions: 0,
    savedTokens: 0,
    details: [`${kind} happened`],
  });

  it('colours a request by its weightiest kind: a checkpoint outranks the recall check that followed it, a recall check alone has its own tick', () => {
    const html = timelineHtml(
      {
        points: [point(1), point(2)],
        markers: [marker(1, 'recall'), marker(1, 'checkpoint'), marker(2, 'recall')],
        requests: 2,
        maxTokens: 1000,
      },
      DEFAULT_THRESHOLDS,
      1000,
    );
    const ticks = [...html.matchAll(/<line class="tick kind-([a-z-]+)"/g)].map((m) => m[1]);
    assert.deepEqual(ticks, ['checkpoint', 'recall']);
  });

  it('draws what each request repeated of the one before, and says the share, once requests were sent', () => {
    const model = (points: TimelinePointView[]) => ({ points, markers: [], requests: points.length, maxTokens: 1000 });
    const unsent = timelineHtml(model([point(1), point(2)]), DEFAULT_THRESHOLDS, 1000);
    assert.doesNotMatch(unsent, /class="reused"|prompt cache/);
    const sent = timelineHtml(
      model([
        { ...point(1), reused: 0 },
        { ...point(2), reused: 450 },
      ]),
      DEFAULT_THRESHOLDS,
      1000,
    );
    assert.match(sent, /<polyline class="reused" points="[\d.]+,[\d.]+ [\d.]+,[\d.]+"/);
    const after = point(1).after + point(2).after;
    assert.ok(sent.includes(`${Math.round((100 * 450) / after)}% of what was sent repeated the request before`), sent);
    assert.match(sent, /key-reused/);
  });
});

describe('which chats the dashboard says reach ctx', () => {
  it('names the Local harness and the harnesses that never reach ctx, with or without a session', async () => {
    const { sections } = await sectionsOf();
    for (const html of [sections.header, renderSections(undefined, { kind: 'none' }, DEFAULT_THRESHOLDS).header]) {
      assert.match(html, /"\(ctx\)" model/);
      assert.match(html, /<b>Local<\/b> harness/);
      assert.match(html, /Copilot, Claude or Codex harness do not call VS Code's models/);
    }
    assert.match(noSessionHtml(), /under "Other Models"/);
  });
});
