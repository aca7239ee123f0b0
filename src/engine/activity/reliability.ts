/**
 * Reliability (design §9): how far the conversation can still be trusted, from the
 * model's size, how many times the context was compressed, and how much of what the session
 * depends on survived: the drift check's confidence (the intent, goals, locked decisions), and,
 * when recall checks ran, how many of the facts of the summarized spans are still within reach.
 *
 *   score = modelFactor × compressionPenalty × contextConfidence
 *   contextConfidence = drift × (1 − RECALL_WEIGHT × (1 − recall))
 */
import { formatCount } from '../text/numbers';

export type ReliabilityLevel = 'High' | 'Medium' | 'Low' | 'Critical';

export interface Reliability {
  /** 0 to 1. */
  readonly score: number;
  readonly level: ReliabilityLevel;
  readonly modelFactor: number;
  readonly compressionPenalty: number;
  /** The drift check's confidence, lowered by the recall checks' when they ran. */
  readonly contextConfidence: number;
  /** The drift check's confidence alone; present when a recall confidence was given. */
  readonly driftConfidence?: number;
  /** The recall checks' confidence, when given. */
  readonly recallConfidence?: number;
  /** The compression warning, present when the level is Critical. */
  readonly warning?: string;
}

/** Model factors by parameter count (billions): 70B+, 30B, 13B, 7B, 3B and below. */
const SIZE_FACTORS: readonly { readonly atLeastBillions: number; readonly factor: number }[] = [
  { atLeastBillions: 70, factor: 0.95 },
  { atLeastBillions: 30, factor: 0.85 },
  { atLeastBillions: 13, factor: 0.7 },
  { atLeastBillions: 7, factor: 0.5 },
  { atLeastBillions: 0, factor: 0.3 },
];

/**
 * Hosted models rarely state their size, so they are placed by family instead. Frontier models
 * are treated like the 70B+ class; small, fast variants and unknown models like its 30B
 * class: capable, but not the best at holding a long, compressed history. Unknown models get the
 * benefit of the doubt rather than the 3B factor, which would warn on every hosted model we have
 * not heard of.
 */
export const FRONTIER_FACTOR = 0.95;
/** See FRONTIER_FACTOR. */
export const SMALL_FAST_FACTOR = 0.85;
/** See FRONTIER_FACTOR. */
export const UNKNOWN_MODEL_FACTOR = 0.85;

/** Each compression costs 15%… */
export const PENALTY_PER_COMPRESSION = 0.15;
/** …and the penalty never goes below 30%. */
export const MIN_COMPRESSION_PENALTY = 0.3;

/** The levels, as lower bounds in percent: 85–100 High, 60–84 Medium, 40–59 Low, below 40 Critical. */
export const HIGH_FROM_PERCENT = 85;
export const MEDIUM_FROM_PERCENT = 60;
export const LOW_FROM_PERCENT = 40;

const SMALL_FAST = /(?:^|[^a-z])(?:mini|nano|haiku|flash|lite)(?![a-z])/;
const FRONTIER = [/gpt-4o/, /gpt-4\.1/, /gpt-5/, /(?:^|[^a-z0-9])o[134](?![0-9])/, /gemini.*pro/];
/** Claude versions from 3.5 on are frontier. */
const CLAUDE_FRONTIER_FROM = 3.5;

/** The model factor for a model name, from its parameter count when the name states one, else its family. */
export function modelFactorFor(model: string | undefined): number {
  const name = (model ?? '').toLowerCase().replace(/[\s_]+/g, '-');
  const billions = parameterBillions(name);
  if (billions !== undefined) return SIZE_FACTORS.find((s) => billions >= s.atLeastBillions)?.factor ?? UNKNOWN_MODEL_FACTOR;
  if (SMALL_FAST.test(name)) return SMALL_FAST_FACTOR;
  if (FRONTIER.some((re) => re.test(name)) || isFrontierClaude(name)) return FRONTIER_FACTOR;
  return UNKNOWN_MODEL_FACTOR;
}

/** "70b", "3.2:3b", "8x7b" (a mixture: 56); undefined when the name states no size. */
function parameterBillions(name: string): number | undefined {
  const mixture = /(?:^|[^a-z0-9.])(\d+)x(\d+(?:\.\d+)?)b(?![a-z0-9])/.exec(name);
  if (mixture) return Number(mixture[1]) * Number(mixture[2]);
  const plain = /(?:^|[^a-z0-9.])(\d+(?:\.\d+)?)b(?![a-z0-9])/.exec(name);
  return plain ? Number(plain[1]) : undefined;
}

/** Claude Sonnet or Opus 3.5 and later ("claude-3-5-sonnet", "claude-sonnet-4", "Claude Opus 4.1"). */
function isFrontierClaude(name: string): boolean {
  if (!/claude/.test(name) || !/sonnet|opus/.test(name)) return false;
  const version = /(?:^|[^0-9])(\d)(?:[.-](\d))?(?![0-9])/.exec(name.replace(/-?\d{8}/g, ''));
  if (!version) return true; // No version in the name: the current line, which is frontier.
  return Number(`${version[1]}.${version[2] ?? '0'}`) >= CLAUDE_FRONTIER_FROM;
}

/** max(1 − 0.15 × compressions, 0.30). */
export function compressionPenalty(count: number): number {
  return Math.max(1 - PENALTY_PER_COMPRESSION * Math.max(0, count), MIN_COMPRESSION_PENALTY);
}

/** The level of a score; judged on the whole percent shown, so what people see and the level agree. */
export function reliabilityLevel(score: number): ReliabilityLevel {
  const percent = Math.round(score * 100);
  if (percent >= HIGH_FROM_PERCENT) return 'High';
  if (percent >= MEDIUM_FROM_PERCENT) return 'Medium';
  if (percent >= LOW_FROM_PERCENT) return 'Low';
  return 'Critical';
}

export interface ReliabilityInput {
  readonly model: string | undefined;
  readonly checkpointsMade: number;
  /** The drift check's confidence, 0 to 1; 1 when nothing was lost. */
  readonly contextConfidence: number;
  /** The recall checks' confidence, 0 to 1 (see `recallConfidence`); absent when none ran. */
  readonly recallConfidence?: number;
}

/**
 * How much losing every fact of the summarized spans lowers the context confidence.
 * @default 0.5 — facts are details around what the drift check guards (the intent, the locked
 * decisions): losing them all halves the confidence, losing the intent takes it further.
 */
export const RECALL_WEIGHT = 0.5;

/** The drift check's confidence lowered by the recall checks' (see the module comment); the drift's alone without one. */
export function contextConfidenceOf(drift: number, recall?: number): number {
  const d = clamp01(drift);
  return recall === undefined ? d : d * (1 - RECALL_WEIGHT * (1 - clamp01(recall)));
}

const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

/** The score, its level, and the warning when it is Critical. */
export function reliabilityFor(input: ReliabilityInput): Reliability {
  const modelFactor = modelFactorFor(input.model);
  const penalty = compressionPenalty(input.checkpointsMade);
  const contextConfidence = contextConfidenceOf(input.contextConfidence, input.recallConfidence);
  const score = modelFactor * penalty * contextConfidence;
  const level = reliabilityLevel(score);
  const parts =
    input.recallConfidence === undefined
      ? {}
      : { driftConfidence: clamp01(input.contextConfidence), recallConfidence: clamp01(input.recallConfidence) };
  const base = { score, level, modelFactor, compressionPenalty: penalty, contextConfidence, ...parts };
  return level === 'Critical' ? { ...base, warning: renderWarning(input.model, input.checkpointsMade, score, contextConfidence) } : base;
}

function renderWarning(model: string | undefined, compressions: number, score: number, contextConfidence: number): string {
  const who = model ? `Your model (${model})` : 'Your model';
  const what =
    compressions > 0
      ? `${who} has compressed the conversation ${timesWord(compressions)}. Models, small ones most, may lose context accuracy after repeated compression.`
      : `${who} is small enough that it may lose context accuracy in a long conversation.`;
  return [
    `⚠️ Context Compression Warning — ${what}`,
    ...(contextConfidence < 1 ? ['Some of what this session depends on was missing from the context after the last compression.'] : []),
    `Reliability is now about ${Math.round(score * 100)}%.`,
    '',
    'Recommendations:',
    '- Continue if you are making good progress.',
    '- Start a fresh session from the latest checkpoint with /fresh if you see hallucinations or forgotten rules.',
    '- Use a larger model for complex long-term tasks.',
  ].join('\n');
}

const timesWord = (n: number): string => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);

/** Traffic lights for the levels. */
const LEVEL_ICONS: Readonly<Record<ReliabilityLevel, string>> = { High: '🟢', Medium: '🟡', Low: '🟠', Critical: '🔴' };

/** The status line, e.g. "Context 5,234/13,600 · Reliability 🟡 65% (2 compressions)". */
export function renderReliabilityLine(r: Reliability, tokens: number, budget: number, compressions: number): string {
  const count = compressions === 0 ? 'no compressions' : compressions === 1 ? '1 compression' : `${compressions} compressions`;
  return `Context ${formatCount(tokens)}/${formatCount(budget)} · Reliability ${LEVEL_ICONS[r.level]} ${Math.round(r.score * 100)}% (${count})`;
}
