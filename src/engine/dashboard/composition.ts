/**
 * The composition of the budget: what each part of the next request takes (the system prompt, the
 * ledger's parts, the checkpoints by age, the live messages, the tool results kept and the offload
 * previews, the framing), the free space, and the answer reserve, which is kept beside the budget
 * and never counted as used. Built from the engine's own measurement (`contextBreakdown.ts`): the
 * used parts add up to the tokens the request sends.
 */
import type { CheckpointAge } from '../model/checkpoint';
import type { ContextPart } from '../model/contextSection';
import { usageOf } from '../budget';
import { LEVELS, type Level, type LevelThresholds } from '../levels';
import { levelOfView } from '../model/requestView';
import { contextBreakdown, type ContextBreakdown } from './contextBreakdown';
import type { DashboardInput } from './dashboardInput';

export type CompositionKey =
  | 'system'
  | 'instructions'
  | 'intent'
  | 'goals'
  | 'decisions'
  | 'progress'
  | 'artifacts'
  | 'pinned'
  | 'facts'
  | 'userMessages'
  | 'toolRecord'
  | 'putBack'
  | 'checkpointsRecent'
  | 'checkpointsOld'
  | 'checkpointsAncient'
  | 'checkpointsMerged'
  | 'earlier'
  | 'messages'
  | 'toolResults'
  | 'offloadPreviews'
  | 'framing';

export type CompositionGroup = 'system' | 'ledger' | 'checkpoints' | 'conversation' | 'framing';

/** Each part's name and group, in the order the bar shows them. */
export const COMPOSITION_PARTS: readonly { readonly key: CompositionKey; readonly group: CompositionGroup; readonly label: string }[] = [
  { key: 'system', group: 'system', label: 'System prompt' },
  { key: 'instructions', group: 'ledger', label: 'Instruction files' },
  { key: 'intent', group: 'ledger', label: 'Session intent' },
  { key: 'goals', group: 'ledger', label: 'Goals' },
  { key: 'decisions', group: 'ledger', label: 'Locked decisions' },
  { key: 'progress', group: 'ledger', label: 'Progress and next step' },
  { key: 'artifacts', group: 'ledger', label: 'Artifacts' },
  { key: 'pinned', group: 'ledger', label: 'Pinned items' },
  { key: 'facts', group: 'ledger', label: 'Facts from summarized messages' },
  { key: 'userMessages', group: 'ledger', label: 'Your earlier messages' },
  { key: 'toolRecord', group: 'ledger', label: 'Tool record' },
  { key: 'putBack', group: 'ledger', label: 'Put back by the drift check' },
  { key: 'checkpointsRecent', group: 'checkpoints', label: 'Checkpoints · recent' },
  { key: 'checkpointsOld', group: 'checkpoints', label: 'Checkpoints · old' },
  { key: 'checkpointsAncient', group: 'checkpoints', label: 'Checkpoints · ancient' },
  { key: 'checkpointsMerged', group: 'checkpoints', label: 'Checkpoints · merged' },
  { key: 'earlier', group: 'checkpoints', label: 'Earlier lines, word for word' },
  { key: 'messages', group: 'conversation', label: 'Recent messages' },
  { key: 'toolResults', group: 'conversation', label: 'Tool results kept' },
  { key: 'offloadPreviews', group: 'conversation', label: 'Offload previews' },
  { key: 'framing', group: 'framing', label: 'Message framing' },
];

const CHECKPOINT_KEYS: Readonly<Record<CheckpointAge, CompositionKey>> = {
  0: 'checkpointsRecent',
  1: 'checkpointsOld',
  2: 'checkpointsAncient',
  3: 'checkpointsMerged',
};

/** The part each section of the context message counts toward. */
const SECTION_KEYS: Readonly<Record<Exclude<ContextPart, 'checkpoint'>, CompositionKey>> = {
  contextHeading: 'framing',
  ledgerHeading: 'framing',
  instructions: 'instructions',
  intent: 'intent',
  goals: 'goals',
  decisions: 'decisions',
  progress: 'progress',
  nextStep: 'progress',
  artifacts: 'artifacts',
  pinned: 'pinned',
  facts: 'facts',
  toolRecord: 'toolRecord',
  userMessages: 'userMessages',
  putBack: 'putBack',
  earlier: 'earlier',
};

export interface CompositionPart {
  readonly key: CompositionKey;
  readonly group: CompositionGroup;
  readonly label: string;
  readonly tokens: number;
  /** Share of the budget. */
  readonly share: number;
}

export interface ThresholdMark {
  readonly level: Level;
  /** Share of the budget where the level starts. */
  readonly share: number;
  readonly tokens: number;
}

export interface Composition {
  readonly budget: number;
  /** The answer reserve: beside the budget, never used by the context. */
  readonly reserve: number;
  /** Tokens the next request sends: the sum of the parts. */
  readonly used: number;
  readonly free: number;
  readonly usage: number;
  readonly level: Level;
  /** True while the figures are estimates (the tokenizer is loading). */
  readonly estimated: boolean;
  /** The used parts with tokens, in the bar's order. */
  readonly parts: readonly CompositionPart[];
  /** Where each level from YELLOW on starts. */
  readonly thresholds: readonly ThresholdMark[];
}

/** The composition of the budget for the view of the state. */
export function composition(input: DashboardInput, breakdown: ContextBreakdown = contextBreakdown(input)): Composition {
  const { budget, view, state, options } = input;
  const tokens = new Map<CompositionKey, number>();
  const add = (key: CompositionKey, n: number) => n !== 0 && tokens.set(key, (tokens.get(key) ?? 0) + n);
  const ages = new Map(state.checkpoints.map((c) => [c.id, c.age]));
  for (const { section, tokens: n } of breakdown.sections) {
    if (section.part === 'checkpoint') add(CHECKPOINT_KEYS[ages.get(section.checkpointId ?? '') ?? 0], n);
    else add(SECTION_KEYS[section.part], n);
  }
  const offloaded = new Set(state.offloads.map((o) => o.callId));
  let system = 0;
  let messages = 0;
  let previews = 0;
  let results = 0;
  for (const m of breakdown.messages) {
    if (m.message.role === 'system') system += m.own;
    else messages += m.own;
    if (m.resultTokens === 0) continue;
    for (const [callId, n] of m.results) {
      if (offloaded.has(callId)) previews += n;
      else results += n;
    }
  }
  add('system', system);
  add('messages', messages);
  add('offloadPreviews', previews);
  add('toolResults', results);
  add('framing', breakdown.framing);
  const parts = COMPOSITION_PARTS.flatMap((p) => {
    const n = tokens.get(p.key) ?? 0;
    return n > 0 ? [{ ...p, tokens: n, share: usageOf(n, budget) }] : [];
  });
  const used = view.measured.total;
  return {
    budget,
    reserve: Math.max(0, input.reserveTokens),
    used,
    free: Math.max(0, budget - used),
    usage: usageOf(used, budget),
    level: levelOfView(view, budget, options.thresholds),
    estimated: view.measured.estimated,
    parts,
    thresholds: thresholdMarks(options.thresholds, budget),
  };
}

function thresholdMarks(t: LevelThresholds, budget: number): ThresholdMark[] {
  const shares: Readonly<Record<Exclude<Level, 'GREEN'>, number>> = {
    YELLOW: t.yellowAt,
    ORANGE: t.orangeAt,
    RED: t.redAt,
    CRITICAL: t.criticalAt,
  };
  return LEVELS.filter((l): l is Exclude<Level, 'GREEN'> => l !== 'GREEN').map((level) => ({
    level,
    share: shares[level],
    tokens: Math.round(shares[level] * budget),
  }));
}
