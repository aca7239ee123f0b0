import * as assert from 'node:assert/strict';
import { buildPreview } from '../../src/engine/preview/preview';
import { offloadFileName } from '../../src/engine/tiers/offload';
import { message, printedTextBlock, type ToolResultBlock } from '../../src/engine/types';
import { call, filler, result, user } from './support/builders';
import { sessionRig } from './support/session';

const resultBlock = (rig: ReturnType<typeof sessionRig>, callId: string): ToolResultBlock => {
  for (const m of rig.session.messages) for (const b of m.blocks) if (b.type === 'toolResult' && b.callId === callId) return b;
  throw new Error(`no result ${callId}`);
};

describe('tier 1: offload large tool results', () => {
  it('offloads a tool result above the threshold to a file and leaves a preview and the path', async () => {
    const rig = sessionRig();
    const big = filler(20_000);
    const events = await rig.session.add([user('read the log'), call('c1', 'read_log', { path: 'app.log' }), result('c1', big)]);
    const block = resultBlock(rig, 'c1');
    assert.match(block.content, /^## Offloaded: read_log Result/);
    assert.match(
      block.content,
      /\*\*Path:\*\* memory:\/sessions\/s-20260121-103522-test\/offloaded\/20260121-103522-000_read_log_c1_[0-9a-f]{8}\.txt/,
    );
    assert.match(block.content, /\*\*Tokens Saved:\*\*/);
    assert.match(block.content, /> lorem ipsum/);
    assert.ok(block.content.length < 4000);
    const record = rig.session.offloads[0];
    assert.equal(await rig.store.read(record.file), big);
    assert.equal(events[0].kind, 'offload');
    assert.ok(record.savedTokens > 19_000);
  });

  it('offloads on arrival what the host printed of a command the user ran, as a result of its size, and keeps it printed', async () => {
    const rig = sessionRig();
    const output = `Ran \`find .\`\n${filler(20_000)}\nsrc/cart/total.ts`;
    await rig.session.add([
      user('look at the tree'),
      message('p1', 'user', [printedTextBlock(output), printedTextBlock('Ran `pwd`\n/work/app')]),
    ]);
    const printed = rig.session.messages.find((m) => m.id === 'p1');
    assert.ok(printed !== undefined);
    const [big, small] = printed.blocks;
    assert.ok(big.type === 'text' && big.printed === true && big.injected === true, 'still what the host printed');
    assert.match(big.text, /^## Offloaded: printed output Result/);
    assert.ok(big.text.length < 4000);
    assert.deepEqual(small, printedTextBlock('Ran `pwd`\n/work/app'), 'a small printout stays as it is');
    const [record] = rig.session.offloads;
    assert.equal(record.toolName, 'printed output');
    assert.equal(await rig.store.read(record.file), output);
    const archived = await rig.session.readArchive();
    assert.ok(
      archived.some((m) => m.blocks.some((b) => b.type === 'text' && b.text === output)),
      'the archive keeps it whole',
    );
  });

  it('keeps a result at or below the threshold as it is', async () => {
    const rig = sessionRig();
    const content = filler(14_000);
    await rig.session.add([call('c1', 'read_log', {}), result('c1', content)]);
    assert.equal(resultBlock(rig, 'c1').content, content);
    assert.equal(rig.session.offloads.length, 0);
  });

  it('offloads on arrival a result above a twentieth of the budget, below the token threshold, unless the share is set higher', async () => {
    for (const [share, offloaded] of [
      [undefined, ['c2']],
      [0.25, []],
    ] as const) {
      const rig = sessionRig(share === undefined ? {} : { offloadBudgetShare: share });
      await rig.session.add([user('read the logs')]);
      await rig.session.prepare(60_000);
      const [under, over] = [filler(2_500), filler(4_000)];
      await rig.session.add([call('c1', 'read_log', {}), result('c1', under), call('c2', 'read_log', {}), result('c2', over)]);
      assert.equal(resultBlock(rig, 'c1').content, under, 'a twentieth of 60,000 is 3,000 tokens');
      assert.deepEqual(
        rig.session.offloads.map((o) => o.callId),
        offloaded,
      );
    }
  });

  it('counts a kept result once: the count that decided to keep it serves every measurement after it', async () => {
    const rig = sessionRig();
    const content = filler(14_000);
    const counted: string[] = [];
    const countMany = rig.tokenizer.countMany.bind(rig.tokenizer);
    rig.tokenizer.countMany = (texts) => {
      counted.push(...texts);
      return countMany(texts);
    };
    await rig.session.add([user('read the log'), call('c1', 'read_log', {}), result('c1', content)]);
    await rig.session.prepare(100_000);
    await rig.session.prepare(100_000);
    assert.equal(resultBlock(rig, 'c1').content, content);
    assert.equal(counted.filter((t) => t === content).length, 1);
  });

  it('keeps small results and small structured JSON even with a tiny threshold', async () => {
    const rig = sessionRig({ offloadThresholdTokens: 50 });
    const small = 'x'.repeat(600); // 150 tokens: under the 200-token floor
    const json = JSON.stringify(Array.from({ length: 40 }, (_, i) => ({ id: i, ok: true }))); // ~ 400 tokens of JSON
    await rig.session.add([call('c1', 'a', {}), result('c1', small), call('c2', 'b', {}), result('c2', json)]);
    assert.equal(resultBlock(rig, 'c1').content, small);
    assert.equal(resultBlock(rig, 'c2').content, json);
  });

  it('offloads a huge tool error only with a plain notice that the call failed', async () => {
    const rig = sessionRig();
    const error = `Traceback (most recent call last):\n${filler(16_000, 'frame')}ValueError: boom`;
    await rig.session.add([call('c1', 'run_tests', {}), result('c1', error, true)]);
    const block = resultBlock(rig, 'c1');
    assert.equal(block.isError, true);
    assert.match(block.content, /## Offloaded: run_tests Error/);
    assert.match(block.content, /This tool call failed/);
    assert.match(block.content, /ValueError: boom/);
  });

  it('names the file from timestamp, tool and call id, and no tool name can escape the folder', () => {
    const name = offloadFileName(Date.UTC(2026, 0, 2, 3, 4, 5, 6), '../../etc/passwd', 'call/../../x', 'text');
    assert.match(name, /^20260102-030405-006_etc_passwd_call_x_[0-9a-f]{8}\.txt$/);
    assert.ok(!name.includes('/') && !name.includes('..'));
    assert.match(offloadFileName(0, '', '', 'json'), /^19700101-000000-000_tool_call_[0-9a-f]{8}\.json$/);
  });
});

describe('previews by content type', () => {
  it('shows a JSON array as row count, keys and a few sample rows', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ id: i, name: `n${i}`, total: i * 3 }));
    const p = buildPreview(JSON.stringify(rows), 'database_query');
    assert.equal(p.kind, 'json');
    assert.match(p.text, /1,000 rows; keys: id, name, total/);
    assert.match(p.text, /\{"id":0,"name":"n0","total":0\}/);
    assert.ok(!p.text.includes('"id":3,'));
  });

  it('shows a JSON object response by its keys with scalar fields kept', () => {
    const p = buildPreview(JSON.stringify({ status: 200, items: new Array(500).fill({ a: 1 }), next: 'cursor-9' }), 'api_call');
    assert.match(p.text, /`status`: 200/);
    assert.match(p.text, /`items`: array of 500/);
    assert.match(p.text, /`next`: "cursor-9"/);
  });

  it('shows a file read over 500 lines as line ranges, the head and an outline', () => {
    const lines = Array.from({ length: 1200 }, (_, i) => (i === 700 ? 'export function handleRequest(req) {' : `  const v${i} = ${i};`));
    const p = buildPreview(lines.join('\n'), 'read_file');
    assert.equal(p.kind, 'fileRead');
    assert.match(p.text, /1,200 lines\. Lines 1–30 below/);
    assert.match(p.text, /line 701: export function handleRequest/);
  });

  it('shows search results as titles, snippets and URLs', () => {
    const hits = Array.from(
      { length: 30 },
      (_, i) => `Result ${i}: How to fix error ${i} - https://example.com/q/${i}\nThe fix is to upgrade package ${i}.\n`,
    );
    const p = buildPreview(hits.join('\n'), 'web_search');
    assert.equal(p.kind, 'search');
    assert.match(p.text, /30 links/);
    assert.match(p.text, /Result 0 How to fix error 0 — https:\/\/example\.com\/q\/0\n {2}The fix is to upgrade package 0\./);
  });

  it('shows generic text as its first lines and last lines', () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const p = buildPreview(text, 'run');
    assert.match(p.text, /> line 0\n/);
    assert.match(p.text, /> line 9\n> … 85 lines omitted …\n> line 95/);
    assert.match(p.text, /> line 99$/);
  });

  it("shows a document's middle by its headings, each with its first line, and takes no code comment for a heading", () => {
    const filler = (n: number, what: string) => Array.from({ length: n }, (_, i) => `- ${what} rule ${i}`);
    const doc = [
      '# Team handbook',
      '',
      '## Background',
      ...filler(12, 'background'),
      '## Purpose',
      '',
      'Move the billing jobs to the new queue without downtime.',
      ...filler(10, 'purpose'),
      '```bash',
      '# restart the workers',
      'make restart',
      '```',
      '## Style',
      '- Keep answers short.',
      ...filler(10, 'style'),
    ].join('\r\n');
    const p = buildPreview(doc, 'attached context');
    assert.match(
      p.text,
      /the headings among them, each with its first line:\n> ## Purpose\n> Move the billing jobs to the new queue without downtime\.\n/,
    );
    assert.match(p.text, /> ## Style\n> - Keep answers short\.\n> …\n/);
    assert.doesNotMatch(p.text, /> # restart the workers/);
    assert.doesNotMatch(p.text, /\r/);
  });

  it("shows a sub-agent's report by its own last lines, without the record its harness put under it", () => {
    const report = Array.from({ length: 100 }, (_, i) => `finding ${i} of the rate tables`);
    const record = [
      "agentId: b41c07e9d2 (use SendMessage with to: 'b41c07e9d2' to continue this agent)",
      '<usage>total_tokens: 54555',
      'tool_uses: 29',
      'duration_ms: 176713</usage>',
    ];
    const p = buildPreview([...report, ...record].join('\n'), 'Task');
    assert.match(p.text, /> finding 95 of the rate tables\n[^]*> finding 99 of the rate tables$/);
    assert.doesNotMatch(p.text, /agentId|total_tokens|duration_ms/);
  });

  it("leaves out the agent's id that ends a sub-agent's report with no record under it", () => {
    const report = Array.from({ length: 100 }, (_, i) => `finding ${i} of the rate tables`);
    const p = buildPreview([...report, "agentId: c5e09a1 (for resuming to continue this agent's work if needed)"].join('\n'), 'Task');
    assert.match(p.text, /> finding 99 of the rate tables$/);
    assert.doesNotMatch(p.text, /agentId/);
  });

  it("shows a delegated result that is only the harness's notice that the agent started as it is, not as nothing", () => {
    const notice = [
      'Agent started in the background.',
      "agentId: 9f3ab21c44 (internal id; use SendMessage with to: '9f3ab21c44' to continue this agent)",
      'You will be notified when it completes.',
    ].join('\n');
    assert.match(buildPreview(notice, 'Task').text, /Agent started in the background\./);
  });

  it('cuts one enormous line so a preview stays small', () => {
    const p = buildPreview('x'.repeat(5_000_000), 'run');
    assert.ok(p.text.length < 1000);
    assert.match(p.text, /\[\+4,999,760 chars\]/);
  });
});
