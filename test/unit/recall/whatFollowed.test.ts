import * as assert from 'node:assert/strict';
import { FOLLOWED_BONUS, OUTPUT_LINE_SCORES, outputLineFacts } from '../../../src/engine/recall/outputLines';
import { injectedTextBlock, message, printedTextBlock } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';

/** An output of a head line, forty lines of progress and a closing line. */
const output = (closing: string) =>
  ['Running the benchmark suite', ...Array.from({ length: 40 }, (_, i) => `  case ${i} of the suite measured`), closing].join('\n');

const scoreOf = (facts: ReturnType<typeof outputLineFacts>, text: string) => facts.find((f) => f.text === text)?.score;

describe('output lines ranked by what happened after their step', () => {
  it("raises a line the agent's next words come back to, by what followed and not by the line's words", () => {
    const closing = 'Total size: 118412 bytes after compression';
    const steps = [call('b1', 'bash', { command: 'npm run size' }), result('b1', output(closing))];
    const echoed = outputLineFacts([user('How large is the bundle?'), ...steps, assistant('The bundle is 118412 bytes now.')]);
    const ignored = outputLineFacts([user('How large is the bundle?'), ...steps, assistant('Done with that step.')]);
    const a = scoreOf(echoed, closing);
    const b = scoreOf(ignored, closing);
    assert.ok(a !== undefined && b !== undefined);
    assert.ok(a > b, `echoed ${a}, not echoed ${b}`);
    assert.ok(Math.abs(a - b - FOLLOWED_BONUS.echoed) < 1e-9);
  });

  it("raises a search's hit whose file the agent's next calls opened, and not a hit it left", () => {
    const hits = ['pkg/server/routes.go:88:func wrap(h Handler) Handler {', 'pkg/server/limits.go:14:func wrapLimit(n int) Limit {'];
    const search = [call('g1', 'Grep', { pattern: 'func wrap', path: '/work/app/pkg/server' }), result('g1', hits.join('\n'))];
    const opened = [call('r1', 'Read', { file_path: '/work/app/pkg/server/routes.go', offset: 80 }), result('r1', 'package server')];
    const facts = outputLineFacts([user('Where is the handler wrapped?'), ...search, ...opened, assistant('Found it.')]);
    const left = outputLineFacts([user('Where is the handler wrapped?'), ...search, assistant('Found it.')]);
    const [read, other] = hits.map((h) => scoreOf(facts, h));
    const before = scoreOf(left, hits[0]);
    assert.ok(read !== undefined && other !== undefined && before !== undefined);
    assert.ok(Math.abs(read - before - FOLLOWED_BONUS.echoed) < 1e-9, `opened ${read}, not opened ${before}`);
    assert.ok(read > other, `the hit opened ${read}, the one left ${other}`);
    // Only the step's own follow-up counts: once the user has spoken, what the agent opens is new work.
    const later = outputLineFacts([user('Where is the handler wrapped?'), ...search, user('Now the limits.'), ...opened]);
    assert.equal(scoreOf(later, hits[0]), before);
    // What the host put in a user message in between (a reminder, a command's output) is not the user speaking.
    const notice = message('n1', 'user', [injectedTextBlock('<system-reminder>The file routes.go was modified.</system-reminder>')]);
    const printed = message('p1', 'user', [printedTextBlock('$ git status\nOn branch main')]);
    const hostBetween = outputLineFacts([
      user('Where is the handler wrapped?'),
      ...search,
      notice,
      printed,
      ...opened,
      assistant('Found it.'),
    ]);
    assert.equal(scoreOf(hostBetween, hits[0]), read);
  });

  it('lowers the lines of a command the agent ran again, whose later run had the last word', () => {
    const closing = 'Total size: 130001 bytes after compression';
    const first = [call('b1', 'bash', { command: 'npm run size' }), result('b1', output(closing))];
    const again = [call('b2', 'bash', { command: 'npm run size' }), result('b2', output('Total size: 118412 bytes after compression'))];
    const once = outputLineFacts([user('Shrink the bundle.'), ...first, assistant('Next, the images.')]);
    const twice = outputLineFacts([user('Shrink the bundle.'), ...first, ...again, assistant('Next, the images.')]);
    const before = scoreOf(once, closing);
    const after = scoreOf(twice, closing);
    assert.ok(before !== undefined && after !== undefined);
    assert.ok(after < before, `run again ${after}, the last run ${before}`);
  });

  it('keeps every output line below the facts, whatever followed', () => {
    const closing = 'Total size: 118412 bytes after compression';
    const facts = outputLineFacts([
      call('b1', 'bash', { command: 'npm run size' }),
      result('b1', output(closing)),
      assistant('The bundle is 118412 bytes now.'),
    ]);
    const top = OUTPUT_LINE_SCORES.diagnostic + FOLLOWED_BONUS.echoed + FOLLOWED_BONUS.closing;
    assert.ok(
      facts.every((f) => f.score <= top && f.score < 0.3),
      facts.map((f) => `${f.score} ${f.text}`).join('\n'),
    );
  });
});
