/**
 * ctx's models: the time the provider adds to a request, against sending the same request straight
 * to the model (a stand-in that answers at once), with the history at about 50 and 500 messages.
 * Each request re-sends the whole conversation as new objects, as a caller in another extension
 * host does, with two new messages (the model's tool call and its result); the provider recognises
 * the known prefix, adds the new messages (tier 1), prepares the context (tiers 2 and 3, ledger,
 * checkpoints) and forwards it. The store is on disk, as in the extension. Also: `provideTokenCount`
 * for a message, counted as ctx sends it, first and again.
 * Run alone with `node out/test/bench/provider.js [--quick]`.
 */
import { performance } from 'node:perf_hooks';
import { CancellationSource } from '../../src/engine/cancellation';
import { relayRequest } from '../../src/engine/relay/relayRequest';
import { messageTokensAsSent } from '../../src/engine/relay/sentTokens';
import { DEFAULT_OFFLOAD_THRESHOLD_TOKENS } from '../../src/engine/options';
import { TokenCounter } from '../../src/engine/tokens/counter';
import type { LocalTokenizer } from '../../src/engine/tokens/localTokenizer';
import { TextCounts } from '../../src/engine/tokens/textCounts';
import { median, type BenchRow } from './benchRow';
import {
  agentTools,
  asNewObjects,
  benchRelay,
  callerConversation,
  sendDirectly,
  systemPrompt,
  type CallerMessage,
} from './providerFixtures';
import { readyTokenizer } from './replayFixtures';
import { runAlone } from './runAlone';

const GROUP = 'provider';
/** The wrapped model's window: a common 128K. */
const WINDOW_TOKENS = 128_000;
/** The brief's goal for the time added per request at 500 messages. */
const ADDED_MEDIAN_GOAL_MS = 20;
/** New messages per request: the model's tool call and the tool's result. */
const NEW_PER_REQUEST = 2;

/** The value below which `share` of the values fall. */
function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
}

interface Timings {
  readonly relayed: number[];
  readonly direct: number[];
  readonly first: number;
}

/**
 * Requests whose history grows to `messages`: the first sends all but the measured part at once,
 * then `requests` requests each add two messages.
 */
async function timeRequests(tokenizer: LocalTokenizer, messages: number, requests: number): Promise<Timings> {
  const conversation = callerConversation(messages);
  const tools = agentTools();
  const relay = benchRelay(tokenizer);
  const cancellation = new CancellationSource().token;
  const request = (history: readonly CallerMessage[]) =>
    relayRequest(
      { messages: [...asNewObjects([systemPrompt()]), ...history], tools, maxInputTokens: WINDOW_TOKENS, cancellation },
      relay.ports,
    );
  try {
    const start = messages - requests * NEW_PER_REQUEST;
    const began = performance.now();
    await request(asNewObjects(conversation.slice(0, start)));
    const first = performance.now() - began;
    const relayed: number[] = [];
    const direct: number[] = [];
    for (let i = 1; i <= requests; i++) {
      // The copies stand for what crossing between extension hosts costs, which is not the provider's.
      const history = asNewObjects(conversation.slice(0, start + i * NEW_PER_REQUEST));
      const t0 = performance.now();
      await sendDirectly([systemPrompt(), ...history], []);
      const t1 = performance.now();
      await request(history);
      const t2 = performance.now();
      direct.push(t1 - t0);
      relayed.push(t2 - t1);
    }
    return { relayed, direct, first };
  } finally {
    relay.dispose();
  }
}

async function tokenCountRows(tokenizer: LocalTokenizer): Promise<BenchRow[]> {
  const messages = callerConversation(300);
  const counts = new TextCounts(new TokenCounter(tokenizer));
  const deps = { count: (t: string) => counts.count(t), offloadThresholdTokens: DEFAULT_OFFLOAD_THRESHOLD_TOKENS };
  const time = async () => {
    const each: number[] = [];
    for (const m of messages) {
      const t0 = performance.now();
      await messageTokensAsSent(m.blocks, deps);
      each.push(performance.now() - t0);
    }
    return each;
  };
  const first = await time();
  const again = await time();
  return [
    {
      group: GROUP,
      name: 'provideTokenCount for a message, first time (median, p95)',
      value: median(first),
      unit: 'ms',
      note: `p95 ${percentile(first, 0.95).toFixed(2)} ms over ${messages.length} messages of a dev transcript; large results counted as their preview`,
    },
    {
      group: GROUP,
      name: 'provideTokenCount for a message asked again (median, p95)',
      value: median(again),
      unit: 'ms',
      baseline: median(first),
      ratio: median(first) / Math.max(median(again), 1e-6),
      note: `p95 ${percentile(again, 0.95).toFixed(3)} ms; every text is counted once and remembered`,
    },
  ];
}

export async function benchProvider(quick = false): Promise<BenchRow[]> {
  const tokenizer = await readyTokenizer();
  const rows: BenchRow[] = [];
  for (const messages of quick ? [50] : [50, 500]) {
    const requests = quick ? 5 : messages >= 500 ? 40 : 15;
    const t = await timeRequests(tokenizer, messages, requests);
    const added = t.relayed.map((ms, i) => Math.max(0, ms - t.direct[i]));
    const goal = messages >= 500 ? ADDED_MEDIAN_GOAL_MS : undefined;
    rows.push(
      {
        group: GROUP,
        name: `time added per request, ~${messages} messages (median)`,
        value: median(added),
        unit: 'ms',
        baseline: median(t.direct),
        ...(goal ? { goal: `≤ ${goal} ms`, met: median(added) <= goal } : {}),
        note:
          `${requests} requests from ${messages - requests * NEW_PER_REQUEST} to ${messages} messages, 2 new each; ` +
          `baseline: the same request straight to the stand-in`,
      },
      {
        group: GROUP,
        name: `time added per request, ~${messages} messages (p95)`,
        value: percentile(added, 0.95),
        unit: 'ms',
        baseline: percentile(t.direct, 0.95),
        note: `slowest requests include Tier 3 checkpoints written while the caller waits`,
      },
      {
        group: GROUP,
        name: `first request of an unknown ${messages - requests * NEW_PER_REQUEST}-message conversation`,
        value: t.first,
        unit: 'ms',
        note: 'every message is new: archived, tier 1, ledger, and the first preparation',
      },
    );
  }
  rows.push(...(await tokenCountRows(tokenizer)));
  return rows;
}

runAlone(module, benchProvider);
