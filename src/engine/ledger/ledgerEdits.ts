/**
 * Single edits to a ledger: add a goal or a decision, complete a goal, set a progress mark, add
 * an artifact, record offloaded results. Each returns a new ledger (or the same one when nothing
 * changes) and never adds the same text twice.
 */
import type { Goal, Ledger, LedgerSource, OffloadedEntry, ProgressStatus } from '../model/ledgerTypes';
import { boundedRecord } from './toolRecord';

/** Text compared for duplicates: case, spacing and a final full stop do not count. */
export function sameText(a: string, b: string): boolean {
  return normalizeText(a) === normalizeText(b);
}

function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!]+$/, '');
}

/** Adds an active goal, unless a goal with the same text is already there. */
export function addGoal(ledger: Ledger, text: string, source: LedgerSource, at: number, id: string, messageId?: string): Ledger {
  return addGoalWithStatus(ledger, text, 'active', source, at, id, messageId);
}

/** Adds a goal in the given status, unless a goal with the same text is already there. */
export function addGoalWithStatus(
  ledger: Ledger,
  text: string,
  status: Goal['status'],
  source: LedgerSource,
  at: number,
  id: string,
  messageId?: string,
): Ledger {
  const trimmed = text.trim();
  if (trimmed.length === 0 || ledger.goals.some((g) => sameText(g.text, trimmed))) return ledger;
  const goal: Goal = { id, text: trimmed, status, source, at };
  return { ...ledger, goals: [...ledger.goals, messageId === undefined ? goal : { ...goal, messageId }] };
}

/** Marks the goal with this id, or else with this text, completed. Unknown goals leave the ledger as it is. */
export function completeGoal(ledger: Ledger, idOrText: string, at: number): Ledger {
  const index = findGoal(ledger, idOrText);
  if (index < 0 || ledger.goals[index].status === 'completed') return ledger;
  const goals = [...ledger.goals];
  goals[index] = { ...goals[index], status: 'completed', at };
  return { ...ledger, goals };
}

/** Index of the goal with this id, or else with this text; -1 when there is none. */
export function findGoal(ledger: Ledger, idOrText: string): number {
  const byId = ledger.goals.findIndex((g) => g.id === idOrText);
  return byId >= 0 ? byId : ledger.goals.findIndex((g) => sameText(g.text, idOrText));
}

/** Adds a locked decision, unless a decision with the same text is already there. */
export function addDecision(ledger: Ledger, text: string, source: LedgerSource, at: number, id: string, messageId?: string): Ledger {
  const trimmed = text.trim();
  if (trimmed.length === 0 || ledger.decisions.some((d) => sameText(d.text, trimmed))) return ledger;
  const decision = { id, text: trimmed, locked: true, source, at };
  return { ...ledger, decisions: [...ledger.decisions, messageId === undefined ? decision : { ...decision, messageId }] };
}

/** Adds a progress mark, or changes the status of the mark with the same text where it stands. */
export function setProgress(ledger: Ledger, text: string, status: ProgressStatus, source: LedgerSource, at: number): Ledger {
  const trimmed = text.trim();
  if (trimmed.length === 0) return ledger;
  const index = ledger.progress.findIndex((p) => sameText(p.text, trimmed));
  if (index < 0) return { ...ledger, progress: [...ledger.progress, { text: trimmed, status, source, at }] };
  if (ledger.progress[index].status === status) return ledger;
  const progress = [...ledger.progress];
  progress[index] = { ...progress[index], status, source, at };
  return { ...ledger, progress };
}

/** Adds an artifact line, unless the same line is already there. */
export function addArtifact(ledger: Ledger, text: string): Ledger {
  const trimmed = text.trim();
  if (trimmed.length === 0 || ledger.artifacts.some((a) => sameText(a, trimmed))) return ledger;
  return { ...ledger, artifacts: [...ledger.artifacts, trimmed] };
}

/**
 * Records offloaded results, the newest within the record's limit; an entry for a call already
 * recorded replaces it. An offload record may be given as it is: only the entry's fields are kept.
 */
export function withOffloaded(ledger: Ledger, entries: readonly OffloadedEntry[]): Ledger {
  if (entries.length === 0) return ledger;
  const offloaded = [...ledger.tools.offloaded];
  const index = new Map(offloaded.map((e, i) => [e.callId, i]));
  for (const { callId, toolName, file, tokens, subject } of entries) {
    const entry: OffloadedEntry = { callId, toolName, file, tokens, ...(subject === undefined ? {} : { subject }) };
    const at = index.get(callId);
    if (at === undefined) {
      index.set(callId, offloaded.length);
      offloaded.push(entry);
    } else offloaded[at] = entry;
  }
  return { ...ledger, tools: boundedRecord({ ...ledger.tools, offloaded }) };
}
