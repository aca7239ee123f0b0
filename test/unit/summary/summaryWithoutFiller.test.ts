import * as assert from 'node:assert/strict';
import { NEVER_CANCELLED } from '../../../src/engine/cancellation';
import { recordToolActivity } from '../../../src/engine/ledger/toolRecord';
import { extractFacts } from '../../../src/engine/recall/extractFacts';
import { holdsKey, matchForm } from '../../../src/engine/facts/factKey';
import { DeterministicSummarizer } from '../../../src/engine/summary/deterministicSummarizer';
import { withFittingGuide } from '../../../src/engine/summary/promptBudget';
import { sectionHeading } from '../../../src/engine/summary/summaryFormat';
import { buildSummaryPrompt, LEDGER_NOTE, MAX_PROMPT_FACTS } from '../../../src/engine/summary/summaryPrompt';
import type { SummaryRequest } from '../../../src/engine/summary/summarizer';
import { message, textBlock, toolCallBlock, toolResultBlock, type Message } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';
import { chatOnlySession, devopsSession, germanSession, longSession, notebookSession, silentAgentSession } from '../recall/recallSessions';
import { countChars, guide, historyRequest } from './summaryFakes';

const summarizer = new DeterministicSummarizer({ countText: countChars, recordTools: (m) => recordToolActivity(m) });
const summarize = (request: SummaryRequest) => summarizer.summarize(request, NEVER_CANCELLED);
const sessions: readonly (readonly [string, () => Message[]])[] = [
  ['notebook', notebookSession],
  ['devops', devopsSession],
  ['German', germanSession],
  ['chat without tools', chatOnlySession],
  ['silent agent', silentAgentSession],
  ['long pipeline', () => longSession(60)],
];
const FILLER = /left out to fit|none recorded|nothing recorded|not stated|none stated/i;

/** Headings followed directly by another heading or by the end: sections showing nothing. */
function bareHeadings(summary: string): string[] {
  const lines = summary.split('\n').filter((l) => l.trim().length > 0);
  return lines.filter((l, i) => l.startsWith('### ') && (i + 1 >= lines.length || lines[i + 1].startsWith('### ')));
}

describe('summaries without filler', () => {
  for (const [name, session] of sessions) {
    for (const target of [150, 300, 600, 1200]) {
      it(`writes no placeholder and no "left out" line for the ${name} session at ${target} tokens`, async () => {
        for (const besideLedger of [false, true]) {
          const summary = await summarize({ ...historyRequest(session(), target), besideLedger });
          assert.doesNotMatch(summary, FILLER);
          assert.ok((await countChars(summary)) <= target);
        }
      });
    }

    it(`keeps facts of the ${name} session in a few lines at 150 tokens, never headings alone`, async () => {
      const messages = session();
      const facts = extractFacts(messages);
      const summary = await summarize({ ...historyRequest(messages, 150), facts, besideLedger: true });
      const text = matchForm(summary);
      const kept = facts.filter((f) => holdsKey(text, f.key));
      assert.ok(kept.length >= 2, `${kept.length} facts kept:\n${summary}`);
      assert.deepEqual(bareHeadings(summary), [], summary);
    });
  }

  it('leaves out a section with nothing to say', async () => {
    const summary = await summarize(historyRequest(chatOnlySession(), 1200));
    assert.ok(!summary.includes(sectionHeading('Artifacts Created')), 'no file was touched or named');
    assert.ok(summary.includes(sectionHeading('Key Decisions')));
  });

  it('fills Key Decisions with what the assistant decided, without any marker', async () => {
    const summary = await summarize(historyRequest(chatOnlySession(), 1200));
    const decisions = summary.slice(summary.indexOf(sectionHeading('Key Decisions')), summary.indexOf(sectionHeading('Critical Facts')));
    assert.match(decisions, /I won't recommend a key-value store here because/);
    assert.match(decisions, /Then we'll store each page under the key `feed:<page>` in MMKV instead of adding SQLite\./);
  });

  it('beside the ledger, repeats neither the intent, the goals, the locked decisions nor the next step', async () => {
    const request: SummaryRequest = {
      ...historyRequest(devopsSession(), 1200, {
        guide: guide('Roll out the new ingress config to staging with terraform.', {
          goals: ['Zero downtime on staging'],
          decisions: ['Terraform only, no kubectl edits'],
          nextStep: 'Promote the config to production',
        }),
      }),
      besideLedger: true,
    };
    const summary = await summarize(request);
    for (const held of [
      sectionHeading('Session Intent'),
      'Zero downtime on staging',
      'Terraform only, no kubectl edits',
      'Promote the config to production',
    ]) {
      assert.ok(!summary.includes(held), held);
    }
    const alone = await summarize({ ...request, besideLedger: false });
    assert.ok(
      alone.includes('Zero downtime on staging') && alone.includes('Terraform only, no kubectl edits'),
      'shown when the summary stands alone',
    );
  });

  it('files no narration under Key Decisions: a look announced or a reaction is no decision, a change the next call makes is', async () => {
    const messages: Message[] = [
      user('Add a Status column to the sessions table.', 'u1'),
      message('a1', 'assistant', [
        textBlock('Let me check the subagent row:'),
        toolCallBlock('r1', 'Read', { file_path: 'lib/pane_list_live.ex' }),
      ]),
      message('t1', 'tool', [toolResultBlock('r1', '<tr class="subagent-row"><td>name</td><td>branch</td></tr>')]),
      message('a2', 'assistant', [
        textBlock('Good, I understand the test patterns.'),
        textBlock('I will add an empty cell to `subagent-row` in lib/pane_list_live.ex for the Status column.'),
        toolCallBlock('e1', 'Edit', {
          file_path: 'lib/pane_list_live.ex',
          old_string: '<td>name</td>',
          new_string: '<td>name</td><td></td>',
        }),
      ]),
      message('t2', 'tool', [toolResultBlock('e1', 'The file lib/pane_list_live.ex has been updated successfully.')]),
      call('c1', 'Bash', { command: 'mix test' }),
      result('c1', '18 tests, 0 failures'),
    ];
    const summary = await summarize(historyRequest(messages, 1200));
    const from = summary.indexOf(sectionHeading('Key Decisions'));
    const decisions = summary.slice(from, summary.indexOf('\n### ', from + 1));
    assert.match(decisions, /add an empty cell to `subagent-row`/);
    assert.doesNotMatch(decisions, /Let me check the subagent row/);
    assert.doesNotMatch(decisions, /Good, I understand the test patterns/);
    assert.doesNotMatch(summary, /Decided: (?:Let me|Good)/);
    const lines = extractFacts(messages, { narration: true });
    assert.deepEqual(
      lines.filter((f) => f.narration === true).map((f) => f.key),
      ['Let me check the subagent row:', 'Good, I understand the test patterns.'],
      "the earlier lines may still show them, as the agent's own words",
    );
  });

  it('files no question the agent asks itself as a decision or an outcome, even when the next command names what it asks about', async () => {
    const messages: Message[] = [
      user('Copying a price list must not change the original.', 'u1'),
      call('r1', 'Bash', { command: 'grep -n "def copy_prices" shop/prices.py' }),
      result('r1', '88:def copy_prices(table, currency):'),
      message('a1', 'assistant', [
        textBlock('Does `copy_prices` hand back the same `table` object?'),
        toolCallBlock('c1', 'Bash', {
          command: 'python -c "from shop.prices import copy_prices; t = {}; print(copy_prices(t, \'EUR\') is t)"',
        }),
      ]),
      message('t1', 'tool', [toolResultBlock('c1', 'True')]),
      message('a2', 'assistant', [
        textBlock('I will return a shallow copy from `copy_prices` in shop/prices.py.'),
        toolCallBlock('e1', 'Edit', { file_path: 'shop/prices.py', old_string: 'return table', new_string: 'return dict(table)' }),
      ]),
      message('t2', 'tool', [toolResultBlock('e1', 'The file shop/prices.py has been updated successfully.')]),
    ];
    const summary = await summarize(historyRequest(messages, 1200));
    assert.match(summary, /return a shallow copy from `copy_prices`/);
    assert.doesNotMatch(summary, /hand back the same/);
    assert.ok(
      extractFacts(messages, { narration: true }).some((f) => f.narration === true && f.text.includes('hand back the same')),
      "the earlier lines may still show it, as the agent's own words",
    );
  });

  it('files no look announced under Key Decisions when it names what the results before it held', async () => {
    const messages: Message[] = [
      user('Show the trainer chat for the signed-in student.', 'u1'),
      call('r1', 'Read', { file_path: 'app/chat/TrainerChatViewModel.swift' }),
      result('r1', 'final class TrainerChatViewModel {\n  let sessionStore: SessionStore\n  var messages: [ChatMessage] = []\n}'),
      message('a1', 'assistant', [
        textBlock('Let me check how `SessionStore` gives the signed-in user id:'),
        toolCallBlock('g1', 'Grep', { pattern: 'currentUserId', path: 'app/session' }),
      ]),
      message('t1', 'tool', [toolResultBlock('g1', 'app/session/SessionStore.swift:12:  var currentUserId: String?')]),
      message('a2', 'assistant', [
        textBlock('I will pass `sessionStore.currentUserId` into TrainerChatViewModel when the chat opens.'),
        toolCallBlock('e1', 'Edit', {
          file_path: 'app/chat/TrainerChatViewModel.swift',
          old_string: '  var messages: [ChatMessage] = []',
          new_string: '  var messages: [ChatMessage] = []\n  let userId: String',
        }),
      ]),
      message('t2', 'tool', [toolResultBlock('e1', 'The file app/chat/TrainerChatViewModel.swift has been updated successfully.')]),
    ];
    const summary = await summarize(historyRequest(messages, 1200));
    const from = summary.indexOf(sectionHeading('Key Decisions'));
    const decisions = summary.slice(from, summary.indexOf('\n### ', from + 1));
    assert.match(decisions, /pass `sessionStore.currentUserId` into TrainerChatViewModel/);
    assert.doesNotMatch(decisions, /Let me check how `SessionStore`/);
  });

  it('files no look announced under Key Decisions when an agent with only a shell looks with a search or a listing', async () => {
    const messages: Message[] = [
      user('Make parse_duration accept "90s".', 'u1'),
      call('c0', 'bash', { command: 'cat src/duration.py' }),
      result('c0', 'def parse_duration(text):\n    return int(text)'),
      message('a1', 'assistant', [
        textBlock('Let us check which callers of `parse_duration` pass a unit.'),
        toolCallBlock('g1', 'bash', { command: 'grep -rn "parse_duration" src tests | head -20 && ls tests' }),
      ]),
      message('t1', 'tool', [
        toolResultBlock(
          'g1',
          'src/timer.py:8:    parse_duration(args.wait)\ntests/test_duration.py:3:from src.duration import parse_duration',
        ),
      ]),
      message('a2', 'assistant', [
        textBlock('I will strip a trailing `s` in `parse_duration` before converting.'),
        toolCallBlock('e1', 'bash', { command: `sed -i 's/return int(text)/return int(text.removesuffix("s"))/' src/duration.py` }),
      ]),
      message('t2', 'tool', [toolResultBlock('e1', '')]),
    ];
    const summary = await summarize(historyRequest(messages, 1200));
    const from = summary.indexOf(sectionHeading('Key Decisions'));
    const decisions = summary.slice(from, summary.indexOf('\n### ', from + 1));
    assert.match(decisions, /strip a trailing `s` in `parse_duration`/, 'a plan an in-place edit carries out is a decision');
    assert.doesNotMatch(decisions, /check which callers/);
  });

  it('says a recorded error was fixed, and by what, when a line of commands that runs it again succeeded', async () => {
    const summary = await summarize(historyRequest(devopsSession(), 1200));
    assert.match(summary, /Error acquiring the state lock — fixed: `terraform force-unlock .*` succeeded/);
    assert.doesNotMatch(summary, /Unfixed: Error: Error acquiring the state lock/);
  });

  it('beside the ledger, spends no line on where the originals are: the context says it once, each checkpoint names its messages', async () => {
    const request = historyRequest(devopsSession(), 4000);
    const alone = await summarize(request);
    const beside = await summarize({ ...request, besideLedger: true });
    assert.ok(alone.includes(`- Full conversation: ${request.references.archive}`), 'a summary read on its own says where they are');
    assert.ok(!beside.includes(request.references.archive) && !beside.includes('Messages covered'), beside);
  });

  it('reads a phase that opens with a word of praise together with what follows it', async () => {
    const messages = [
      user('Make the CSV parser read quoted fields.'),
      assistant('Great! The parser now reads quoted fields with embedded commas.'),
    ];
    const summary = await summarize(historyRequest(messages, 2000));
    assert.match(summary, /\*\*Phase:\*\* Great! The parser now reads quoted fields with embedded commas\./);
  });

  describe('the prompt', () => {
    it("tells the model what the ledger holds, asks for no empty sections, and leaves the intent's heading out", () => {
      const prompt = buildSummaryPrompt({ ...historyRequest(devopsSession(), 600), besideLedger: true });
      assert.ok(prompt.includes(LEDGER_NOTE));
      assert.match(prompt, /Leave out a section that has nothing to say/);
      const format = prompt.slice(prompt.indexOf('OUTPUT FORMAT'));
      assert.ok(!format.includes(sectionHeading('Session Intent')));
      assert.ok(!format.includes(sectionHeading('Recovery References')), "the context's heading says how to search");
    });

    it('lists the best facts for the model to keep, word for word', () => {
      const messages = devopsSession();
      const facts = extractFacts(messages);
      const prompt = buildSummaryPrompt({ ...historyRequest(messages, 600), facts });
      const listed = prompt.slice(prompt.indexOf('FACTS FROM THESE MESSAGES'), prompt.indexOf('PRESERVE:'));
      for (const f of [...facts].sort((a, b) => b.score - a.score).slice(0, MAX_PROMPT_FACTS)) {
        assert.ok(holdsKey(matchForm(listed), f.key), f.key);
      }
    });

    it('drops the facts before shortening the guide when a small window needs room', async () => {
      const messages = longSession(200);
      const request = { ...historyRequest(messages, 600), facts: extractFacts(messages) };
      const withFacts = await countChars(buildSummaryPrompt({ ...request, messages: [] }));
      const withoutFacts = await countChars(buildSummaryPrompt({ ...request, facts: [], messages: [] }));
      const fitted = await withFittingGuide(request, [], Math.floor(((withFacts + withoutFacts) / 2) * 2), countChars);
      assert.ok(fitted);
      assert.deepEqual(fitted.request.facts, []);
      assert.equal(fitted.request.guide, request.guide, 'the guide is untouched');
    });
  });
});
