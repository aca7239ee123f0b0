/**
 * Which input window ctx's models should report, measured with a simulated caller that compacts
 * like an agent does: it counts its prompt with the model's token counts and, once the prompt would
 * pass the reported window less a reserve, replaces all but its latest messages with a short summary
 * of its own. The same long agent session (user requests carrying facts to remember, tool results
 * of every size) runs through ctx under three designs:
 *
 * - `model, counts as sent`: the wrapped window, large results counted as the previews ctx sends;
 * - `model, raw counts`: the wrapped window and plain counts (what a wrapper that only forwards would report);
 * - `extended`: eight times the window, counts as sent (ctx's default).
 *
 * Figures: how often the caller compacted, how often ctx had to branch for it, the largest request
 * that reached the model against its real window, and how many of the user's facts the model still
 * had in front of it at the end.
 * Run alone with `node out/test/bench/reportedWindow.js [--quick]`.
 */
import { CancellationSource } from '../../src/engine/cancellation';
import { DEFAULT_OPTIONS, optionsForBudget } from '../../src/engine/options';
import type { Outgoing } from '../../src/engine/relay/outgoing';
import { relayRequest } from '../../src/engine/relay/relayRequest';
import { EXTENDED_WINDOW_FACTOR, reportedInputTokens, type ReportedWindowSetting } from '../../src/engine/relay/reportedWindow';
import { messageTokensAsSent } from '../../src/engine/relay/sentTokens';
import { MESSAGE_OVERHEAD_TOKENS, TokenCounter } from '../../src/engine/tokens/counter';
import type { LocalTokenizer } from '../../src/engine/tokens/localTokenizer';
import { TextCounts } from '../../src/engine/tokens/textCounts';
import { messageText, textBlock, toolCallBlock, toolResultBlock, type Block } from '../../src/engine/types';
import type { BenchRow } from './benchRow';
import { agentTools, benchRelay, systemPrompt, type CallerMessage, type RawMessage } from './providerFixtures';
import { readyTokenizer } from './replayFixtures';
import { runAlone } from './runAlone';

const GROUP = 'reported window';
/** The wrapped model's real windows: a small one, which a few hundred steps fill many times, and a common one. */
const WINDOWS = [32_000, 128_000];
/** Of the latest ordinary tool outputs, how many the model should still see whole. */
const RECENT_OUTPUTS = 10;
/** What the caller keeps free for the answer, as ctx does. */
const CALLER_RESERVE_TOKENS = 4_096;
/** Messages the caller keeps when it compacts (its summary replaces the rest). */
const CALLER_KEEPS = 6;
/** A user request every so many steps, each with a fact to remember. */
const STEPS_PER_REQUEST = 10;

type Counting = 'as sent' | 'raw';

interface Design {
  readonly name: string;
  readonly window: ReportedWindowSetting;
  readonly counting: Counting;
}

const DESIGNS: readonly Design[] = [
  { name: 'model, counts as sent', window: 'model', counting: 'as sent' },
  { name: 'model, raw counts', window: 'model', counting: 'raw' },
  { name: `extended (${EXTENDED_WINDOW_FACTOR}×), counts as sent`, window: 'extended', counting: 'as sent' },
];

const caller = (role: CallerMessage['role'], blocks: Block[]): CallerMessage => ({ role, blocks, extra: [], raw: { role, blocks } });

/** A tool output of about `tokens` tokens: build-log lines, different at every step. */
function output(step: number, tokens: number): string {
  const lines: string[] = [];
  for (let i = 0; lines.length * 12 < tokens; i++) {
    lines.push(`[step ${step}] compiling module_${(i * 7919 + step) % 1000}.ts ok in ${(i * 37) % 900} ms`);
  }
  return lines.join('\n');
}

/** Every 7th output is far above the offload threshold; the rest are ordinary. */
const outputTokens = (step: number) => (step % 7 === 0 ? 20_000 : 300 + ((step * 131) % 2_700));

const fact = (n: number) => `FACT-${n}: the staging database listens on port ${5400 + n}.`;

interface Outcome {
  readonly recentKept: number;
  readonly compactions: number;
  readonly branches: number;
  readonly largestShare: number;
  readonly factsKept: number;
  readonly facts: number;
}

async function simulate(tokenizer: LocalTokenizer, design: Design, steps: number, window: number): Promise<Outcome> {
  const relay = benchRelay(tokenizer);
  const counts = new TextCounts(new TokenCounter(tokenizer));
  const reported = reportedInputTokens(window, design.window);
  const threshold = optionsForBudget(DEFAULT_OPTIONS, window - CALLER_RESERVE_TOKENS).offloadThresholdTokens;
  const countMessage = (m: CallerMessage) =>
    design.counting === 'raw'
      ? Promise.all(
          m.blocks.map((b) => counts.count(b.type === 'text' ? b.text : b.type === 'toolCall' ? JSON.stringify(b.input) : b.content)),
        ).then((n) => n.reduce((a, b) => a + b, MESSAGE_OVERHEAD_TOKENS))
      : messageTokensAsSent(m.blocks, { count: (t) => counts.count(t), offloadThresholdTokens: threshold });
  const tools = agentTools();
  const system = systemPrompt();
  const fixed =
    (await counts.count(messageText({ id: '', role: 'system', blocks: system.blocks }))) +
    (await Promise.all(tools.map((t) => counts.count(t.definition)))).reduce((a, b) => a + b, 0);
  const cancellation = new CancellationSource().token;
  let history: CallerMessage[] = [];
  let compactions = 0;
  let branches = 0;
  let largest = 0;
  let facts = 0;
  let last: readonly Outgoing<RawMessage>[] = [];
  try {
    for (let step = 1; step <= steps; step++) {
      if (step % STEPS_PER_REQUEST === 1) {
        history.push(caller('user', [textBlock(`Request ${++facts}. Remember this: ${fact(facts)} Then continue the build.`)]));
      }
      let total = fixed;
      for (const m of history) total += await countMessage(m);
      if (total > reported - CALLER_RESERVE_TOKENS && history.length > CALLER_KEEPS) {
        compactions++;
        let keepFrom = history.length - CALLER_KEEPS;
        while (keepFrom > 0 && history[keepFrom].role === 'tool') keepFrom--;
        const summary = `Summary of the conversation so far: the build is in progress, step ${step}; ${facts} requests were made.`;
        history = [caller('user', [textBlock(summary)]), ...history.slice(keepFrom)];
      }
      const outcome = await relayRequest({ messages: [system, ...history], tools, maxInputTokens: window, cancellation }, relay.ports);
      if (outcome.route === 'branched') branches++;
      largest = Math.max(largest, (outcome.prepared?.tokens ?? 0) + outcome.fixedTokens);
      last = relay.sent[relay.sent.length - 1];
      const id = `call_${step}`;
      history.push(caller('assistant', [toolCallBlock(id, 'run_in_terminal', { command: `make step-${step}` })]));
      history.push(caller('tool', [toolResultBlock(id, output(step, outputTokens(step)))]));
    }
  } finally {
    relay.dispose();
  }
  const blockText = (b: Block) => (b.type === 'text' ? b.text : b.type === 'toolResult' ? b.content : JSON.stringify(b.input));
  const finalText = last.map((o) => (o.kind === 'engine' ? o.message.blocks : o.raw.blocks).map(blockText).join('\n')).join('\n');
  let factsKept = 0;
  for (let n = 1; n <= facts; n++) if (finalText.includes(fact(n))) factsKept++;
  // The last step's output joined the history after the last request.
  const ordinary = Array.from({ length: steps - 1 }, (_, i) => i + 1).filter((step) => step % 7 !== 0);
  const recentKept = ordinary.slice(-RECENT_OUTPUTS).filter((step) => finalText.includes(output(step, outputTokens(step)))).length;
  return { compactions, branches, largestShare: largest / window, factsKept, facts, recentKept };
}

export async function benchReportedWindow(quick = false): Promise<BenchRow[]> {
  const tokenizer = await readyTokenizer();
  const steps = quick ? 60 : 300;
  const rows: BenchRow[] = [];
  for (const window of quick ? WINDOWS.slice(0, 1) : WINDOWS) {
    const size = `${window / 1000}K`;
    for (const design of DESIGNS) {
      const o = await simulate(tokenizer, design, steps, window);
      const note = `${steps} agent steps, ${window.toLocaleString('en-US')}-token model`;
      rows.push(
        {
          group: GROUP,
          name: `${size}, ${design.name}: caller compactions`,
          value: o.compactions,
          unit: '',
          note: `${note}; ctx branched ${o.branches} times for them`,
        },
        {
          group: GROUP,
          name: `${size}, ${design.name}: largest request / real window`,
          value: o.largestShare * 100,
          unit: '%',
          goal: '≤ 100 %',
          met: o.largestShare <= 1,
          note: 'instructions and tool definitions included',
        },
        {
          group: GROUP,
          name: `${size}, ${design.name}: user facts the model still sees at the end`,
          value: o.factsKept,
          unit: `of ${o.facts}`,
        },
        {
          group: GROUP,
          name: `${size}, ${design.name}: latest tool outputs the model still sees whole`,
          value: o.recentKept,
          unit: `of ${RECENT_OUTPUTS}`,
          note: 'ordinary outputs (large ones always go as previews)',
        },
      );
    }
  }
  return rows;
}

runAlone(module, benchReportedWindow);
