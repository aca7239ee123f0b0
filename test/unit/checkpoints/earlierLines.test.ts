import * as assert from 'node:assert/strict';
import {
  addEarlierLines,
  countedEarlierLinesSection,
  EARLIER_ERROR_DETAIL_CHARS,
  EARLIER_LINES_HEADING,
  EARLIER_POOL_MAX_TOKENS,
  EARLIER_POOL_SHARE,
  earlierLinesSection,
  earlierPoolTokensFor,
  earlierRoomFor,
  rankEarlierLines,
  wholeSectionTokens,
} from '../../../src/engine/checkpoints/earlierLines';
import type { EarlierLine } from '../../../src/engine/model/earlierLine';
import type { Fact, FactKind } from '../../../src/engine/model/fact';
import { matchForm } from '../../../src/engine/facts/factKey';
import { HeldLines } from '../../../src/engine/checkpoints/heldLines';
import { contentLineFacts } from '../../../src/engine/recall/contentLines';
import { seededRandom } from '../tokens/seededRandom';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { call, result } from '../support/builders';

const countText = (text: string) => Promise.resolve(Math.ceil(text.length / 4));
const fact = (kind: FactKind, text: string, score: number): Fact => ({ kind, key: text, text, messageId: 'm', score });

describe('earlier lines, word for word', () => {
  it('adds the facts of a summarized span once each, in the order they came, leaving requests to the ledger', async () => {
    const pool = await addEarlierLines(
      [],
      [
        fact('decision', 'Use a queue for retries.', 0.5),
        fact('request', 'Please add retries.', 0.8),
        fact('decision', 'Use a queue for retries.', 0.6),
      ],
      1000,
      countText,
    );
    assert.deepEqual(
      pool.map((l) => [l.text, l.order]),
      [['- Use a queue for retries.', 1]],
    );
    const more = await addEarlierLines(pool, [fact('outcome', 'Retries pass 12 tests.', 0.4)], 1000, countText);
    assert.deepEqual(
      more.map((l) => l.order),
      [1, 2],
    );
  });

  it("replaces a line saying a file holds a line once a later span's edit took that line out of the same file", async () => {
    const first = extractFacts([
      call('e1', 'edit_file', { path: 'src/client.ts', old_string: 'const retries = 0;', new_string: 'const retries = 3;' }),
      result('e1', 'Applied 1 edit to src/client.ts'),
      call('e2', 'edit_file', { path: 'src/server.ts', old_string: 'const port = 80;', new_string: 'const port = 8080;' }),
      result('e2', 'Applied 1 edit to src/server.ts'),
    ]);
    const pool = await addEarlierLines([], first, 1000, countText);
    assert.ok(
      pool.some((l) => l.text === '- Now in client.ts: const retries = 3;'),
      pool.map((l) => l.text).join(' | '),
    );
    const later = extractFacts([
      call('e3', 'edit_file', { path: 'src/client.ts', old_string: 'const retries = 3;', new_string: 'const retries = 5;' }),
      result('e3', 'Applied 1 edit to src/client.ts'),
      call('e4', 'edit_file', { path: 'src/other.ts', old_string: 'const port = 8080;', new_string: 'const port = 9090;' }),
      result('e4', 'Applied 1 edit to src/other.ts'),
    ]);
    const texts = (await addEarlierLines(pool, later, 1000, countText)).map((l) => l.text);
    assert.ok(!texts.some((t) => t.includes('Now in client.ts: const retries = 3;')), texts.join(' | '));
    assert.ok(texts.includes('- Replaced in client.ts: const retries = 3;'), texts.join(' | '));
    assert.ok(texts.includes('- Now in client.ts: const retries = 5;'), texts.join(' | '));
    assert.ok(texts.includes('- Now in server.ts: const port = 8080;'), 'the same line taken out of another file says nothing of this one');
  });

  it('shows each line as it was written, an error with its label, what it was about and whether it was resolved', async () => {
    const error: Fact = {
      ...fact('error', 'fatal: bad revision origin/dev', 0.7),
      subject: 'git log origin/dev',
      resolution: { resolved: true, by: 'git fetch origin' },
    };
    const pool = await addEarlierLines([], [fact('decision', 'Derive the initials from the display name.', 0.5), error], 1000, countText);
    assert.deepEqual(
      pool.map((l) => l.text),
      [
        '- Derive the initials from the display name.',
        '- Error: fatal: bad revision origin/dev (`git log origin/dev`) — resolved: git fetch origin',
      ],
    );
  });

  it('names the command of an error line in a few words, so the error itself takes the room', async () => {
    const command = 'cd /srv/app && python -m pytest tests/integration/test_export.py -k shard --maxfail=1 -q';
    const error: Fact = {
      ...fact('error', 'ImportError: cannot import name shard_key', 0.6),
      subject: command,
      resolution: { resolved: true, by: `${command} --import-mode=importlib` },
    };
    const [line] = await addEarlierLines([], [error], 1000, countText);
    assert.ok(
      line.text.startsWith('- Error: ImportError: cannot import name shard_key (`cd /srv/app && python -m pytest tests/'),
      line.text,
    );
    const detail = line.text.slice(line.text.indexOf('(`') + 2, line.text.indexOf('`)'));
    assert.ok(detail.length <= EARLIER_ERROR_DETAIL_CHARS, detail);
    assert.ok(
      line.text.length < 'Error: ImportError: cannot import name shard_key'.length + 2 * EARLIER_ERROR_DETAIL_CHARS + 30,
      line.text,
    );
  });

  it('keeps the pool within its tokens by taking out the lowest-scored lines', async () => {
    const facts = Array.from({ length: 20 }, (_, i) => fact('outcome', `Outcome number ${i} of the run, said plainly.`, i / 100));
    const pool = await addEarlierLines([], facts, 60, countText);
    const total = pool.reduce((sum, l) => sum + l.tokens, 0);
    assert.ok(total <= 60, `${total} tokens`);
    assert.ok(pool.length > 0);
    assert.ok(Math.min(...pool.map((l) => l.score)) > 0.1, 'the best lines stayed');
  });

  it('ranks by value for the room: of two lines that score alike the shorter first, a clearly better long line still ahead', () => {
    const line = (key: string, score: number, tokens: number, order: number): EarlierLine => ({
      text: `- ${key}`,
      key,
      kind: 'outcome',
      score,
      tokens,
      order,
    });
    const long = line('the nightly export now writes one file per tenant instead of one per shard', 0.5, 40, 1);
    const short = line('export_v2 is on', 0.5, 10, 2);
    const better = line('the migration refused tenant_12 because the vacuum held its lock', 0.9, 20, 3);
    assert.deepEqual(
      rankEarlierLines([long, short, better], '').map((l) => l.order),
      [3, 2, 1],
    );
  });

  it('shows the best lines that fit the room, in the order they were said, and none a checkpoint holds', () => {
    const line = (text: string, score: number, order: number, kind: FactKind = 'decision'): EarlierLine => ({
      text: `- ${text}`,
      key: text,
      kind,
      score,
      tokens: 30,
      order,
    });
    const pool = [line('First plan.', 0.3, 1), line('Held already.', 0.9, 2), line('Best finding.', 0.8, 3), line('Second plan.', 0.5, 4)];
    const ranked = rankEarlierLines(pool, 'Checkpoint text: held already.');
    const section = earlierLinesSection(ranked, 40 + 30 * 2 + 5, 40 + 30 * 2 + 5);
    assert.ok(section.startsWith(EARLIER_LINES_HEADING));
    assert.deepEqual(
      section.split('\n').filter((l) => l.startsWith('- ')),
      ['- Best finding.', '- Second plan.'],
    );
  });

  it('shows no line that a shown line holds word for word, and gives its room to the next best line', () => {
    const line = (key: string, score: number, order: number): EarlierLine => ({
      text: `- ${key}`,
      key,
      kind: 'artifact',
      score,
      tokens: 40,
      order,
    });
    const name = line('parse_ledger_row', 0.9, 1);
    const sentence = line('I moved `parse_ledger_row` into the reader so the writer no longer imports it.', 0.8, 2);
    const other = line('sweep_tmp_dirs', 0.3, 3);
    const pool = [name, sentence, other];
    const ranked = rankEarlierLines(pool, '');
    const room = 40 + 40 * 2;
    const without = earlierLinesSection(ranked, room, room);
    assert.deepEqual(
      without.split('\n').filter((l) => l.startsWith('- ')),
      [name.text, sentence.text],
      'with nothing to say which line holds which, the two best fill the room',
    );
    const held = new HeldLines(pool);
    const section = earlierLinesSection(ranked, room, room, (l) => held.othersHeldBy(l));
    assert.deepEqual(
      section.split('\n').filter((l) => l.startsWith('- ')),
      [sentence.text, other.text],
    );
    assert.deepEqual(held.othersHeldBy(name), [], 'a name holds no sentence');
    // A line that says more than its key keeps its place beside a line that holds only the key.
    const longer: EarlierLine = { ...line('sweep_tmp_dirs', 0.3, 4), text: '- sweep_tmp_dirs now skips the cache folder' };
    const naming = line('I kept `sweep_tmp_dirs` as it was.', 0.8, 5);
    assert.deepEqual(new HeldLines([longer, naming]).othersHeldBy(naming), []);
  });

  it('leaves out exactly the lines whose key a line of the held text holds, wherever it stands in it (as a plain search of each line would)', () => {
    const next = seededRandom(11);
    const words = ['cache', 'retry', 'queue', 'src/app.ts', 'parse_row', '42', 'the', 'a', 'Flush', 'shard-3', 'données', 'x'];
    const phrase = (n: number) => Array.from({ length: n }, () => words[Math.floor(next() * words.length)]).join(next() < 0.2 ? ', ' : ' ');
    for (let round = 0; round < 40; round++) {
      const held = Array.from({ length: 30 }, () => phrase(3 + Math.floor(next() * 12))).join(next() < 0.5 ? '\n' : '. ');
      const pool: EarlierLine[] = Array.from({ length: 60 }, (_, i) => {
        // Half the keys are cut out of the held text at any place, even inside a word; the rest are new phrases.
        const start = Math.floor(next() * held.length);
        const key = next() < 0.5 ? held.slice(start, start + 2 + Math.floor(next() * 40)) : phrase(1 + Math.floor(next() * 6));
        return { text: `- ${key}`, key, kind: 'decision', score: 0.5, tokens: 10, order: i + 1 };
      });
      const forms = held.split('\n').map(matchForm);
      const expected = pool
        .filter((l) => {
          const f = matchForm(l.key);
          return f.length === 0 || !forms.some((form) => form.includes(f));
        })
        .map((l) => l.order);
      assert.deepEqual(
        rankEarlierLines(pool, held).map((l) => l.order),
        expected,
        `round ${round}`,
      );
    }
  });

  it('gives each kind its share of the room before the best of the rest', () => {
    const lines: EarlierLine[] = [
      ...Array.from({ length: 10 }, (_, i) => ({
        text: `- d${i}`,
        key: `d${i}`,
        kind: 'decision' as const,
        score: 0.9,
        tokens: 10,
        order: i,
      })),
      { text: '- e0', key: 'e0', kind: 'error', score: 0.2, tokens: 10, order: 20 },
    ];
    const section = earlierLinesSection(rankEarlierLines(lines, ''), 40 + 100, 40 + 100);
    assert.ok(section.includes('- e0'), 'a low-scored error still gets its share');
  });

  it('shows what a tool printed only in free room, never in the part of the floor that is counted context', () => {
    const fact: EarlierLine = {
      text: '- Decided: keep the queue',
      key: 'keep the queue',
      kind: 'decision',
      score: 0.6,
      tokens: 10,
      order: 1,
    };
    const printed: EarlierLine = {
      text: '- Outcome: Deploy finished',
      key: 'Deploy finished',
      kind: 'outcome',
      score: 0.1,
      tokens: 10,
      order: 2,
      printed: true,
    };
    const ranked = rankEarlierLines([fact, printed], '');
    const atFloor = earlierLinesSection(ranked, 200, 0);
    assert.ok(atFloor.includes('keep the queue') && !atFloor.includes('Deploy finished'), atFloor);
    const withFreeRoom = earlierLinesSection(ranked, 300, 300);
    assert.ok(withFreeRoom.includes('keep the queue') && withFreeRoom.includes('Deploy finished'), withFreeRoom);
    // The room is the floor, and part of it is free context: printed lines fill that part, not beyond.
    const partFree = earlierLinesSection(ranked, 200, 40 + 20);
    assert.ok(partFree.includes('keep the queue') && partFree.includes('Deploy finished'), partFree);
    const tooLittleFree = earlierLinesSection(ranked, 200, 40 + 19);
    assert.ok(tooLittleFree.includes('keep the queue') && !tooLittleFree.includes('Deploy finished'), tooLittleFree);
  });

  it('shows a diagnostic a tool printed as it shows a fact, beyond the printed lines’ part of the room', () => {
    const line = (key: string, kind: EarlierLine['kind'], score: number, order: number, printed = false): EarlierLine => ({
      text: `- ${key}`,
      key,
      kind,
      score,
      tokens: 10,
      order,
      ...(printed ? { printed: true } : {}),
    });
    const ranked = rankEarlierLines(
      [
        line('keep the queue', 'decision', 0.6, 1),
        line("src/app.ts(12,5): error TS2304: Cannot find name 'queue'.", 'error', 0.2, 2, true),
        line('Deploy finished', 'outcome', 0.12, 3, true),
      ],
      '',
    );
    const atFloor = earlierLinesSection(ranked, 200, 0);
    assert.ok(atFloor.includes('TS2304'), `the diagnostic takes the room as a fact does: ${atFloor}`);
    assert.ok(!atFloor.includes('Deploy finished'), 'another printed line still waits for free room');
  });

  it('shows the lines of an offloaded file quoted under one heading that names the file, and pays for the heading', async () => {
    const decision = fact(
      'decision',
      'Keep the retry budget at three attempts, since the upstream queue drops a task after its fourth redelivery.',
      0.6,
    );
    const lines = [
      'export function retry(task: Task, policy: RetryPolicy = DEFAULT_POLICY): Promise<Outcome> {',
      'const attempts = readAttempts(task, policy.window) ?? policy.firstAttempt;',
      'return schedule(task, attempts, { backoff: policy.backoff, jitter: true });',
    ].map((text): Fact => ({ kind: 'outcome', key: text, text, messageId: 'm', score: 0.05, printed: true, from: 'retry.ts.txt' }));
    const pool = await addEarlierLines([], [decision, ...lines], 1000, countText);
    assert.deepEqual(
      pool.map((l) => l.text),
      [
        '- Keep the retry budget at three attempts, since the upstream queue drops a task after its fourth redelivery.',
        '> export function retry(task: Task, policy: RetryPolicy = DEFAULT_POLICY): Promise<Outcome> {',
        '> const attempts = readAttempts(task, policy.window) ?? policy.firstAttempt;',
        '> return schedule(task, attempts, { backoff: policy.backoff, jitter: true });',
      ],
    );
    const headingTokens = pool[1].fromTokens ?? 0;
    assert.ok(
      headingTokens > 0 && pool.slice(1).every((l) => l.fromTokens === headingTokens),
      'the heading is counted once, the same for each line',
    );

    const ranked = rankEarlierLines(pool, '');
    const section = earlierLinesSection(ranked, 1000, 1000);
    const shown = section.split('\n');
    const heading = shown.findIndex((l) => l.includes('`retry.ts.txt`') && l.includes('ctx_read_offloaded'));
    assert.ok(heading > shown.findIndex((l) => l.startsWith('- Keep the retry budget')), section);
    assert.deepEqual(shown.slice(heading + 1), [
      '> export function retry(task: Task, policy: RetryPolicy = DEFAULT_POLICY): Promise<Outcome> {',
      '> const attempts = readAttempts(task, policy.window) ?? policy.firstAttempt;',
      '> return schedule(task, attempts, { backoff: policy.backoff, jitter: true });',
    ]);

    // The heading is paid for: room for the three lines and their heading shows them all, one token less drops one.
    const fileLines = rankEarlierLines(pool.slice(1), '');
    const exact = 40 + pool.slice(1).reduce((sum, l) => sum + l.tokens, 0) + headingTokens;
    assert.ok(exact >= 100, 'a room the section is shown in');
    assert.equal(
      earlierLinesSection(fileLines, exact, exact)
        .split('\n')
        .filter((l) => l.startsWith('> ')).length,
      3,
    );
    assert.equal(
      earlierLinesSection(fileLines, exact - 1, exact - 1)
        .split('\n')
        .filter((l) => l.startsWith('> ')).length,
      2,
    );
  });

  it('shows lines of content only in room every other line left, top down, each source under its own heading', async () => {
    const report =
      'Collected 412 items, 3 deselected, and wrote the coverage report to build/coverage/index.html in 14.2 seconds ' +
      'while the slow suite ran in a worker pool of four processes';
    const printed: Fact = {
      kind: 'outcome',
      key: report,
      text: report,
      messageId: 'm',
      score: 0.1,
      printed: true,
    };
    const content = (text: string, from: string, fromKind?: 'read' | 'written' | 'output' | 'input'): Fact => ({
      kind: 'outcome',
      key: text,
      text,
      messageId: 'm',
      score: 0.05,
      printed: true,
      from,
      ...(fromKind ? { fromKind } : {}),
    });
    const read = ['const limit = 90;', 'export const window = limit * 2;', 'return window;'].map((t) =>
      content(t, 'src/limits.ts', 'read'),
    );
    const given = content('print(frame.describe())', 'run_ipython', 'input');
    const pool = await addEarlierLines([], [printed, ...read, given], 10_000, countText);
    const ranked = rankEarlierLines(pool, '');
    assert.deepEqual(
      ranked.map((l) => l.key),
      [printed.key, ...read.map((f) => f.key), given.key],
      'a short line of content never comes before a long printed line, and a file reads from the top',
    );
    // Room for the printed line and one line of content with its heading: the longer printed line is the one shown.
    const room = 40 + pool[0].tokens + (pool[1].fromTokens ?? 0) + pool[1].tokens;
    assert.ok(room >= 100, 'a room the section is shown in');
    const section = earlierLinesSection(ranked, room, room);
    assert.ok(section.includes(printed.text), section);
    assert.ok(section.includes('From `src/limits.ts` as read earlier') && section.includes('> const limit = 90;'), section);
    assert.ok(!section.includes('export const window'), section);
    const all = earlierLinesSection(ranked, 10_000, 10_000);
    assert.ok(all.includes('From what `run_ipython` was given earlier:\n> print(frame.describe())'), all);
  });

  it('quotes content only while the section is within the content part, however much room the printed lines may take', async () => {
    const printed = Array.from({ length: 4 }, (_, i): Fact => {
      const text = `Synced ${120 + i} tiles of the harbour map to the render cache, ${i + 2} stale ones dropped`;
      return { kind: 'outcome', key: text, text, messageId: 'm', score: 0.1, printed: true };
    });
    const quoted = Array.from({ length: 6 }, (_, i): Fact => {
      const text = `tile_${i} = load_tile(${i}, zoom=3)`;
      return { kind: 'outcome', key: text, text, messageId: 'm', score: 0.05, printed: true, from: 'tiles.py', fromKind: 'read' };
    });
    const ranked = rankEarlierLines(await addEarlierLines([], [...printed, ...quoted], 10_000, countText), '');
    const quotedIn = (section: string) => section.split('\n').filter((line) => line.startsWith('> tile_')).length;
    const room = 2_000;
    const whole = earlierLinesSection(ranked, room, room);
    assert.equal(quotedIn(whole), 6, 'a content part as large as the room quotes every line');
    const printedTokens = ranked.filter((l) => l.from === undefined).reduce((sum, l) => sum + l.tokens, 0);
    const shared = earlierLinesSection(ranked, room, room, undefined, 40 + printedTokens + (ranked.at(-1)?.fromTokens ?? 0) + 20);
    assert.ok(
      printed.every((f) => shared.includes(f.text)),
      'the printed lines keep their part',
    );
    const some = quotedIn(shared);
    assert.ok(some > 0 && some < 6, `${some} of 6 lines quoted from the top in a content part that holds a few`);
    assert.ok(shared.includes('> tile_0 ='), 'from the top');
    assert.equal(
      quotedIn(earlierLinesSection(ranked, room, room, undefined, 40 + printedTokens)),
      0,
      'none once the printed lines fill it',
    );
  });

  it('quotes a file as read earlier by whole top-level ranges from its top, its `end` and `}` lines with them, or not at all', async () => {
    const file = [
      'defmodule Registry do',
      '  def start(id), do: {:ok, id}',
      'end',
      '',
      'defmodule Registry.Supervisor do',
      '  use Supervisor',
      '  def init(_), do: Supervisor.init([Registry], strategy: :one_for_one)',
      '  def child_spec(opts), do: %{id: __MODULE__, start: {__MODULE__, :start_link, [opts]}}',
      'end',
      '',
      'x = 1',
    ].join('\n');
    const pool = await addEarlierLines([], contentLineFacts(file, 'lib/registry.ex', 'm', 10_000, 'read'), 10_000, countText);
    assert.deepEqual(
      pool.map((l) => l.text.split('\n').length),
      [3, 5, 1],
      'a line of its own ("end") stays with its range',
    );
    const ranked = rankEarlierLines(pool, 'end\n}\nuse Supervisor');
    assert.equal(ranked.length, 3, 'a range is never held by a line that holds one of its lines');
    const heading = pool[0].fromTokens ?? 0;
    const room = 40 + heading + pool[0].tokens + pool[1].tokens - 1;
    const section = earlierLinesSection(ranked, room, room);
    const quoted = section.split('\n').filter((l) => l.startsWith('> '));
    assert.deepEqual(quoted, ['> defmodule Registry do', '>   def start(id), do: {:ok, id}', '> end']);
    assert.ok(!section.includes('x = 1'), 'no range after one that did not fit: what is shown is the file from its top');
    const all = earlierLinesSection(ranked, 10_000, 10_000);
    assert.ok(all.includes('> defmodule Registry.Supervisor do\n>   use Supervisor\n'), all);
  });

  it('masks a secret in a line before it is shown, as an offloaded preview is', async () => {
    const secret = 'AKIA4HKZQ7XNB2TWLM5R';
    const pool = await addEarlierLines([], [fact('outcome', `Deployed with key ${secret} to the staging bucket.`, 0.4)], 1000, countText);
    assert.equal(pool.length, 1);
    assert.ok(!pool[0].text.includes(secret), pool[0].text);
  });

  it('shows nothing in a room too small for a heading and a few lines', () => {
    const pool: EarlierLine[] = [{ text: '- x', key: 'x', kind: 'decision', score: 1, tokens: 5, order: 1 }];
    assert.equal(earlierLinesSection(pool, 50), '');
    assert.equal(earlierRoomFor(50, 100_000), 0);
  });

  it('rounds the room down to a step of the budget, so the section stays the same while the conversation grows a little', () => {
    assert.equal(earlierRoomFor(10_400, 100_000), 10_000);
    assert.equal(earlierRoomFor(10_999, 100_000), 10_000);
    assert.equal(earlierRoomFor(11_000, 100_000), 11_000);
  });

  it('keeps a pool of its share of the budget up to the pool of a budget at the default ceiling, however large the window', () => {
    assert.equal(earlierPoolTokensFor(100_000), Math.floor(100_000 * EARLIER_POOL_SHARE));
    assert.equal(earlierPoolTokensFor(200_000), EARLIER_POOL_MAX_TOKENS);
    assert.equal(earlierPoolTokensFor(1_000_000), EARLIER_POOL_MAX_TOKENS);
    assert.ok(EARLIER_POOL_MAX_TOKENS < 1_000_000 * EARLIER_POOL_SHARE);
  });

  it('shows every line in a room of the whole section, and the same section in any larger room', async () => {
    const random = seededRandom(5);
    const facts = Array.from({ length: 60 }, (_, i) =>
      fact(i % 2 ? 'decision' : 'outcome', `Line ${i} says ${'word '.repeat(1 + Math.floor(random() * 12))}`, random()),
    );
    const file = Array.from({ length: 8 }, (_, i): Fact => ({
      kind: 'outcome',
      key: `row ${i}`,
      text: `row ${i} of the table`,
      messageId: 'm',
      score: 0.05,
      printed: true,
      from: 'table.txt',
    }));
    const ranked = rankEarlierLines(await addEarlierLines([], [...facts, ...file], 100_000, countText), '');
    const whole = wholeSectionTokens(ranked);
    const all = countedEarlierLinesSection(ranked, whole, whole);
    assert.equal(all.text.split('\n').filter((l) => l.startsWith('- ') || l.startsWith('> ')).length, ranked.length);
    assert.ok(all.tokens <= whole, `${all.tokens} of ${whole}`);
    for (const more of [1, 100, 10_000]) assert.equal(countedEarlierLinesSection(ranked, whole + more, whole + more).text, all.text);
    const less = countedEarlierLinesSection(ranked, whole - 1, whole - 1);
    assert.ok(less.text.split('\n').length < all.text.split('\n').length, 'one token less leaves a line out');
  });

  it('leaves out exactly the lines whose key the held text holds, over seeded pools and held texts', () => {
    const words = ['cache', 'retry', 'queue', 'parser', 'build', 'token', 'route', 'schema', 'Error:', 'src/app.ts', '42'];
    const random = seededRandom(2604);
    const pick = () => words[Math.floor(random() * words.length)];
    const phrase = (n: number) => Array.from({ length: n }, pick).join(' ');
    for (let run = 0; run < 40; run++) {
      const pool: EarlierLine[] = Array.from({ length: 60 }, (_, i) => {
        const key = phrase(1 + Math.floor(random() * 6));
        return { text: `- ${key}`, key, kind: 'outcome', score: random(), tokens: 10, order: i + 1 };
      });
      const held = [...pool.filter(() => random() < 0.3).map((l) => l.key), phrase(30)].join('. ');
      const expected = pool.filter((l) => !(matchForm(l.key).length > 0 && matchForm(held).includes(matchForm(l.key))));
      const ranked = rankEarlierLines(pool, held);
      assert.deepEqual(new Set(ranked.map((l) => l.order)), new Set(expected.map((l) => l.order)), `run ${run}`);
    }
  });

  it('finds the same held lines in a pool that grew from another, lent what the other found, as in the pool read afresh', () => {
    const words = ['cache', 'retry', 'queue', 'parser', 'build', 'token', 'route', 'schema', 'src/app.ts', '42'];
    const random = seededRandom(2711);
    const pick = () => words[Math.floor(random() * words.length)];
    const phrase = (n: number) => Array.from({ length: n }, pick).join(' ');
    let order = 0;
    const line = (): EarlierLine => {
      const key = phrase(1 + Math.floor(random() * 5));
      const text = random() < 0.3 ? `- ${key} ${phrase(2)}` : `- ${key}`;
      return { text, key, kind: 'outcome', score: random(), tokens: 10, order: ++order };
    };
    const sorted = (lines: Iterable<EarlierLine>) => [...lines].map((l) => l.order).sort((a, b) => a - b);
    for (let run = 0; run < 30; run++) {
      let pool: EarlierLine[] = Array.from({ length: 40 }, line);
      let lent: HeldLines | undefined;
      // The texts change by a few lines a step, as the ledger and the checkpoints do.
      const textLines = Array.from({ length: 12 }, () => phrase(2 + Math.floor(random() * 8)));
      for (let step = 0; step < 4; step++) {
        textLines[Math.floor(random() * textLines.length)] = phrase(2 + Math.floor(random() * 8));
        const texts = [textLines.join('\n')];
        const chained: HeldLines = new HeldLines(pool, lent);
        const fresh = new HeldLines(pool);
        assert.deepEqual(sorted(chained.heldBy(texts)), sorted(fresh.heldBy(texts)), `run ${run}, step ${step}: held by the texts`);
        for (const l of pool) {
          assert.deepEqual(sorted(chained.othersHeldBy(l)), sorted(fresh.othersHeldBy(l)), `run ${run}, step ${step}: held by a line`);
        }
        lent = chained;
        // The next pool: some lines leave, some come.
        pool = [...pool.filter(() => random() < 0.85), ...Array.from({ length: 1 + Math.floor(random() * 8) }, line)];
      }
    }
  });
});
