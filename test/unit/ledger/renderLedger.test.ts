import * as assert from 'node:assert/strict';
import { EMPTY_LEDGER, type CommandRecord, type FileRecord, type Ledger } from '../../../src/engine/model/ledgerTypes';
import { renderLedger } from '../../../src/engine/ledger/renderLedger';
import { recordSections } from '../../../src/engine/ledger/toolRecordLines';
import { charCounter } from './ledgerFixtures';

const AT = Date.UTC(2026, 0, 21, 10, 0, 0);
const NONE_LIVE: ReadonlySet<string> = new Set();

/** A ledger with every protected section filled in and a tool record of the given size. */
function fullLedger(toolItems = 3): Ledger {
  const files: FileRecord[] = Array.from({ length: toolItems }, (_, i) => ({
    path: `src/module${i}.ts`,
    actions: i % 2 === 0 ? ['read'] : ['read', 'edited'],
    lastAt: AT + i,
    lastCallId: `f${i}`,
  }));
  const commands: CommandRecord[] = Array.from({ length: toolItems }, (_, i) => ({
    callId: `c${i}`,
    command: `npm run step-${i}`,
    ok: i !== 1,
    ...(i === 1 ? { exitCode: 1 } : {}),
    at: AT + i,
  }));
  return {
    ...EMPTY_LEDGER,
    intent: { text: 'Build the parser, keep the public API.', messageId: 'u1', at: AT },
    goals: [
      { id: 'g1', text: 'Ship v1', status: 'completed', source: 'user', at: AT },
      { id: 'g2', text: 'Parse JSON', status: 'active', source: 'user', at: AT },
    ],
    decisions: [{ id: 'd1', text: 'Use PEG', locked: true, source: 'assistant', at: AT }],
    progress: [
      { text: 'Lexer', status: 'completed', source: 'assistant', at: AT },
      { text: 'Parser', status: 'in-progress', source: 'assistant', at: AT },
      { text: 'Docs', status: 'pending', source: 'assistant', at: AT },
    ],
    nextStep: { text: 'Write the error recovery', source: 'assistant', at: AT },
    artifacts: ['Created src/parser.ts'],
    userMessages: [
      { messageId: 'u1', at: AT, text: 'Build the parser, keep the public API.', tokens: 10 },
      { messageId: 'u2', at: AT, text: 'Also: handle **unicode** — ✓ 日本', tokens: 9 },
      { messageId: 'u3', at: AT, text: 'still live', tokens: 3 },
    ],
    tools: {
      files,
      commands,
      errors: [
        { callId: 'c1', toolName: 'Bash', summary: 'Error: step 1 broke', subject: 'npm run step-1', at: AT + 1, fixed: false },
        { callId: 'c0', toolName: 'Bash', summary: 'old failure', subject: 'npm run step-0', at: AT, fixed: true, fixedByCallId: 'c2' },
      ],
      offloaded: [{ callId: 'o1', toolName: 'WebFetch', file: 'offloaded/o1.txt', tokens: 20_000 }],
    },
  };
}

describe('ledger rendering', () => {
  it('renders an empty ledger as an empty string without counting anything', async () => {
    const counter = charCounter();
    const rendered = await renderLedger(EMPTY_LEDGER, { liveMessageIds: NONE_LIVE, budgetTokens: 1000, countText: counter.countText });
    assert.deepEqual(rendered, { text: '', tokens: 0, overflow: false, omitted: [] });
    assert.equal(counter.tokenizer.counted, 0);
  });

  it('renders every section in order with its icons when the budget allows, counting once', async () => {
    const counter = charCounter();
    const rendered = await renderLedger(fullLedger(), {
      liveMessageIds: new Set(['u3']),
      budgetTokens: 10_000,
      countText: counter.countText,
    });
    const text = rendered.text;
    assert.ok(text.startsWith('## Session ledger\n'));
    assert.match(text.split('\n')[1], /kept by ctx.*never summarized/i);
    const titles = [...text.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
    assert.deepEqual(titles, [
      'Session intent',
      'Goals',
      'Locked decisions',
      'Progress',
      'Next step',
      'Artifacts',
      'Files',
      'Commands',
      'Errors',
      'Offloaded results',
      'Earlier user messages',
    ]);
    assert.ok(text.indexOf('- Parse JSON') < text.indexOf('- ✅ Ship v1'));
    assert.match(text, /- 🔒 Use PEG/);
    assert.match(text, /- ✅ Lexer\n- 🔄 Parser\n- ⏳ Docs/);
    assert.match(text, /`npm run step-1` → exit 1/);
    assert.match(text, /`npm run step-2` → ok/);
    assert.ok(text.indexOf('`src/module1.ts`: read, edited') < text.indexOf('`src/module2.ts`: read'));
    assert.ok(text.indexOf('❌ Bash') < text.indexOf('old failure'));
    assert.match(text, /old failure; fixed by `npm run step-2`/);
    assert.match(text, /WebFetch, 20,000 tokens: `offloaded\/o1.txt`/);
    assert.equal(rendered.tokens, Math.ceil(text.length / 4));
    assert.equal(rendered.overflow, false);
    assert.deepEqual(rendered.omitted, []);
    assert.equal(counter.tokenizer.counted, 1);
  });

  it('says an error was fixed by a later run of the same command', async () => {
    const ledger: Ledger = {
      ...EMPTY_LEDGER,
      tools: {
        ...EMPTY_LEDGER.tools,
        commands: [
          { callId: 'c1', command: 'npm test', exitCode: 1, ok: false, at: AT },
          { callId: 'c2', command: 'npm test 2>&1 | tail -5', ok: true, at: AT + 1 },
        ],
        errors: [
          { callId: 'c1', toolName: 'Bash', summary: 'FAIL a.test.ts', subject: 'npm test', at: AT, fixed: true, fixedByCallId: 'c2' },
        ],
      },
    };
    const rendered = await renderLedger(ledger, { liveMessageIds: NONE_LIVE, budgetTokens: 10_000, countText: charCounter().countText });
    assert.match(rendered.text, /- ✔️ Bash on `npm test`: FAIL a\.test\.ts; fixed: a later run succeeded/);
  });

  it('repeats only user messages that are no longer live, verbatim and in order', async () => {
    const ledger = fullLedger();
    const live = await renderLedger(ledger, {
      liveMessageIds: new Set(['u1', 'u2', 'u3']),
      budgetTokens: 10_000,
      countText: charCounter().countText,
    });
    assert.ok(!live.text.includes('Earlier user messages'));
    const some = await renderLedger(ledger, { liveMessageIds: new Set(['u3']), budgetTokens: 10_000, countText: charCounter().countText });
    assert.ok(some.text.includes('Also: handle **unicode** — ✓ 日本'));
    assert.ok(!some.text.includes('still live'));
    const withSecond = { ...ledger, userMessages: [...ledger.userMessages, { messageId: 'u4', at: AT, text: 'fourth', tokens: 2 }] };
    const ordered = await renderLedger(withSecond, { liveMessageIds: NONE_LIVE, budgetTokens: 10_000, countText: charCounter().countText });
    assert.ok(ordered.text.indexOf('unicode') < ordered.text.indexOf('still live'));
    assert.ok(ordered.text.indexOf('still live') < ordered.text.indexOf('fourth'));
  });

  it('shows a user message kept in a file by its preview and path', async () => {
    const ledger: Ledger = {
      ...EMPTY_LEDGER,
      userMessages: [{ messageId: 'u9', at: AT, file: 'user/20260121_100000_user_u9.md', preview: 'first line of the log', tokens: 9000 }],
    };
    const rendered = await renderLedger(ledger, { liveMessageIds: NONE_LIVE, budgetTokens: 10_000, countText: charCounter().countText });
    assert.match(rendered.text, /first line of the log/);
    assert.match(rendered.text, /full text: user\/20260121_100000_user_u9\.md/);
  });

  it('shortens the tool record to fit the budget, oldest and least important first, and never drops the protected part', async () => {
    const ledger = fullLedger(60);
    const counter = charCounter();
    const full = await renderLedger(ledger, { liveMessageIds: NONE_LIVE, budgetTokens: 100_000, countText: charCounter().countText });
    const budget = Math.floor(full.tokens * 0.6);
    const rendered = await renderLedger(ledger, { liveMessageIds: NONE_LIVE, budgetTokens: budget, countText: counter.countText });
    assert.ok(rendered.tokens <= budget, `${rendered.tokens} > ${budget}`);
    assert.equal(rendered.tokens, Math.ceil(rendered.text.length / 4));
    assert.equal(rendered.overflow, false);
    assert.ok(counter.tokenizer.counted <= 5, `counted ${counter.tokenizer.counted} times`);
    for (const kept of [
      'Build the parser, keep the public API.',
      'Parse JSON',
      'Ship v1',
      'Use PEG',
      'Write the error recovery',
      'Created src/parser.ts',
      'handle **unicode**',
      'still live',
    ]) {
      assert.ok(rendered.text.includes(kept), kept);
    }
    assert.match(rendered.text, /Error: step 1 broke/);
    assert.match(rendered.text, /…and \d+ more \(search them with ctx_recover\)/);
    assert.ok(rendered.omitted.length > 0);
    assert.ok(rendered.omitted.every((o) => /^\d+ of \d+ /.test(o)));
    // Files only read give way before files that were changed; the newest changed file stays.
    assert.ok(rendered.text.includes('`src/module59.ts`: read, edited'));
    assert.ok(!rendered.text.includes('`src/module0.ts`: read'));
  });

  it('keeps unfixed errors before the rest of the tool record when the room is small', async () => {
    const ledger = fullLedger(40);
    const protectedOnly = await renderLedger(
      { ...ledger, tools: EMPTY_LEDGER.tools },
      { liveMessageIds: NONE_LIVE, budgetTokens: 100_000, countText: charCounter().countText },
    );
    const rendered = await renderLedger(ledger, {
      liveMessageIds: NONE_LIVE,
      budgetTokens: protectedOnly.tokens + 40,
      countText: charCounter().countText,
    });
    assert.match(rendered.text, /### Errors\n- ❌ Bash on `npm run step-1`: Error: step 1 broke/);
    assert.ok(!rendered.text.includes('### Files'));
    assert.ok(rendered.tokens <= protectedOnly.tokens + 40);
  });

  it('keeps the tool record within its own share even when the ledger has room, unfixed errors first', async () => {
    const ledger = fullLedger(40);
    const protectedOnly = await renderLedger(
      { ...ledger, tools: EMPTY_LEDGER.tools },
      { liveMessageIds: NONE_LIVE, budgetTokens: 100_000, countText: charCounter().countText },
    );
    const whole = await renderLedger(ledger, { liveMessageIds: NONE_LIVE, budgetTokens: 100_000, countText: charCounter().countText });
    const recordTokens = 120;
    const rendered = await renderLedger(ledger, {
      liveMessageIds: NONE_LIVE,
      budgetTokens: 100_000,
      recordTokens,
      countText: charCounter().countText,
    });
    assert.ok(whole.tokens > protectedOnly.tokens + recordTokens, 'the whole record is over its share');
    assert.ok(rendered.tokens <= protectedOnly.tokens + recordTokens, `${rendered.tokens} > ${protectedOnly.tokens} + ${recordTokens}`);
    assert.ok(rendered.text.includes('Build the parser, keep the public API.'));
    assert.match(rendered.text, /- ❌ Bash on `npm run step-1`: Error: step 1 broke/);
    assert.match(rendered.text, /…and \d+ more \(search them with ctx_recover\)/);
    assert.equal(rendered.overflow, false);

    const roomy = await renderLedger(ledger, {
      liveMessageIds: NONE_LIVE,
      budgetTokens: 100_000,
      recordTokens: whole.tokens,
      countText: charCounter().countText,
    });
    assert.equal(roomy.text, whole.text);
  });

  it('reports overflow when the protected part alone is over budget, and still renders all of it', async () => {
    const ledger = fullLedger(10);
    const rendered = await renderLedger(ledger, { liveMessageIds: NONE_LIVE, budgetTokens: 50, countText: charCounter().countText });
    assert.equal(rendered.overflow, true);
    for (const kept of [
      'Build the parser',
      'Parse JSON',
      'Ship v1',
      'Use PEG',
      'Docs',
      'Write the error recovery',
      'Created src/parser.ts',
      'handle **unicode**',
      'still live',
    ]) {
      assert.ok(rendered.text.includes(kept), kept);
    }
    assert.ok(!rendered.text.includes('### Files'));
    assert.deepEqual(rendered.omitted, ['10 of 10 files', '10 of 10 commands', '2 of 2 errors', '1 of 1 offloaded results']);
    assert.ok(rendered.tokens > 50);
  });

  it('lists a command that ran several times once, as it last ran, with its number of runs', async () => {
    const ledger: Ledger = {
      ...EMPTY_LEDGER,
      tools: {
        ...EMPTY_LEDGER.tools,
        commands: [
          { callId: 'c1', command: 'mix compile', exitCode: 1, ok: false, at: AT },
          { callId: 'c2', command: 'mix compile', ok: true, at: AT + 1, output: 'Generated app' },
          { callId: 'c3', command: 'mix compile', ok: true, at: AT + 2, output: 'Compiled 3 files' },
        ],
      },
    };
    const rendered = await renderLedger(ledger, { liveMessageIds: NONE_LIVE, budgetTokens: 10_000, countText: charCounter().countText });
    assert.match(rendered.text, /### Commands\n- `mix compile` \(3 runs\) → ok: Compiled 3 files$/);
  });

  it('shows what each command printed when there is room, and drops that, oldest first, before any command', async () => {
    const commands: CommandRecord[] = Array.from({ length: 30 }, (_, i) => ({
      callId: `c${i}`,
      command: `npm run step-${i}`,
      ok: true,
      at: AT + i,
      output: `step ${i} printed a long line of output that says what it did … and how it ended`,
    }));
    const ledger: Ledger = {
      ...EMPTY_LEDGER,
      intent: { text: 'Build it', messageId: 'u1', at: AT },
      tools: { ...EMPTY_LEDGER.tools, commands },
    };
    const full = await renderLedger(ledger, { liveMessageIds: NONE_LIVE, budgetTokens: 100_000, countText: charCounter().countText });
    assert.match(full.text, /`npm run step-0` → ok: step 0 printed/);
    const plain = await renderLedger(
      { ...ledger, tools: { ...ledger.tools, commands: commands.map(({ output: _, ...c }) => c) } },
      { liveMessageIds: NONE_LIVE, budgetTokens: 100_000, countText: charCounter().countText },
    );
    const budget = Math.floor((full.tokens + plain.tokens) / 2);
    const rendered = await renderLedger(ledger, { liveMessageIds: NONE_LIVE, budgetTokens: budget, countText: charCounter().countText });
    assert.ok(rendered.tokens <= budget);
    for (let i = 0; i < 30; i++) assert.ok(rendered.text.includes(`\`npm run step-${i}\` → ok`), `command ${i} kept`);
    assert.match(rendered.text, /`npm run step-29` → ok: step 29 printed/);
    assert.match(rendered.text, /`npm run step-0` → ok$/m);
    assert.ok(
      rendered.omitted.some((o) => /^\d+ of 30 command outputs$/.test(o)),
      rendered.omitted.join('; '),
    );
  });

  it('lists the searches after the commands under a heading that names both, and cuts them before any command, newer ones first kept', async () => {
    const commands: CommandRecord[] = Array.from({ length: 10 }, (_, i) => ({
      callId: `c${i}`,
      command: `make target-${i}`,
      ok: true,
      at: AT + 2 * i,
    }));
    const searches: CommandRecord[] = Array.from({ length: 10 }, (_, i) => ({
      callId: `s${i}`,
      command: `Grep handler_${i} in src/routes`,
      ok: true,
      at: AT + 2 * i + 1,
      search: true,
    }));
    const ledger: Ledger = {
      ...EMPTY_LEDGER,
      intent: { text: 'Build it', messageId: 'u1', at: AT },
      tools: { ...EMPTY_LEDGER.tools, commands: [...commands, ...searches].sort((a, b) => a.at - b.at) },
    };
    const count = charCounter().countText;
    const full = await renderLedger(ledger, { liveMessageIds: NONE_LIVE, budgetTokens: 100_000, countText: count });
    assert.ok(full.text.indexOf('`make target-0`') < full.text.indexOf('`Grep handler_9 in src/routes`'), 'commands first');
    assert.match(full.text, /^### Commands and searches$/m);
    const withoutSearches = await renderLedger(
      { ...ledger, tools: { ...ledger.tools, commands } },
      { liveMessageIds: NONE_LIVE, budgetTokens: 100_000, countText: count },
    );
    assert.match(withoutSearches.text, /^### Commands$/m);
    const budget = Math.floor((full.tokens + withoutSearches.tokens) / 2);
    const rendered = await renderLedger(ledger, { liveMessageIds: NONE_LIVE, budgetTokens: budget, countText: count });
    assert.ok(rendered.tokens <= budget);
    for (let i = 0; i < 10; i++) assert.ok(rendered.text.includes(`\`make target-${i}\` → ok`), `command ${i} kept`);
    assert.ok(rendered.text.includes('`Grep handler_9 in src/routes`'), 'the newest search kept');
    assert.ok(!rendered.text.includes('`Grep handler_0 in src/routes`'), 'the oldest search cut');
  });

  it('fits the budget with a tokenizer that counts more than four characters a token', async () => {
    const ledger = fullLedger(80);
    const dense = async (text: string) => Math.ceil(text.length / 2.5);
    const full = await renderLedger(ledger, { liveMessageIds: NONE_LIVE, budgetTokens: 1_000_000, countText: dense });
    const budget = Math.floor(full.tokens / 2);
    const rendered = await renderLedger(ledger, { liveMessageIds: NONE_LIVE, budgetTokens: budget, countText: dense });
    assert.ok(rendered.tokens <= budget);
    assert.match(rendered.text, /### Commands/);
  });
  it('keeps each tool record section the same while its list is unchanged, and makes again only the one that changed', () => {
    const ledger = fullLedger(50);
    const before = recordSections(ledger.tools);
    const oneMore: CommandRecord = { callId: 'c-new', command: 'npm run lint', ok: true, at: AT + 99 };
    const after = recordSections({ ...ledger.tools, commands: [...ledger.tools.commands, oneMore] });
    const byId = (lines: typeof before) => new Map(lines.sections.map((s) => [s.id, s]));
    const [was, is] = [byId(before), byId(after)];
    assert.equal(is.get('files'), was.get('files'));
    assert.equal(is.get('offloaded'), was.get('offloaded'));
    assert.equal(is.get('errors'), was.get('errors'), 'the commands changed, but no fixed error names another command');
    assert.notEqual(is.get('commands'), was.get('commands'));
    assert.equal(is.get('commands')?.lines[0], '- `npm run lint` → ok');
  });

  it('counts a ledger over budget section by section when the counter can, joining only the text it returns', async () => {
    const ledger = fullLedger(200);
    const joinedCounts: string[] = [];
    // Counts by line, each line break a token, as ctx's renderer does: sections then add up exactly.
    const byLine = (text: string) => text.split('\n').reduce((n, line) => n + Math.ceil(line.length / 4) + 1, -1);
    const countSections = async (texts: readonly string[]) => texts.reduce((n, t) => n + byLine(t), 2 * (texts.length - 1));
    const countText = async (text: string) => {
      joinedCounts.push(text);
      return byLine(text);
    };
    const full = await renderLedger(ledger, { liveMessageIds: NONE_LIVE, budgetTokens: 1_000_000, countText, countSections });
    assert.equal(full.tokens, byLine(full.text), 'the sections add up to the joined text');
    const budget = Math.floor(full.tokens / 3);
    const rendered = await renderLedger(ledger, { liveMessageIds: NONE_LIVE, budgetTokens: budget, countText, countSections });
    assert.ok(rendered.tokens <= budget && rendered.tokens > budget / 2, `${rendered.tokens} tokens for ${budget}`);
    assert.equal(rendered.tokens, byLine(rendered.text));
    assert.ok(!joinedCounts.some((t) => t.includes('### Files')), 'no text with the tool record was counted joined');
  });
});
