/**
 * Fact extraction: what a span of the conversation established, read from the messages alone
 * (no markers needed, though marker lines win): the user's requests, the assistant's decisions,
 * errors with how they were resolved, outcomes, files and names. Deterministic, and linear in the
 * span's text: every message and block is read a fixed number of times, and error resolution is
 * answered from indexes built once.
 */
import { classifyToolCall, type ToolActivity } from '../ledger/toolActivity';
import { proseLines, splitSentences } from '../text/prose';
import { toolCalls, type Message, type ToolCallBlock } from '../types';
import { callFacts } from './callFacts';
import type { Candidate } from './candidate';
import { ResolutionIndex, type ErrorSite, type FixStatement } from './errorResolution';
import type { Fact } from './fact';
import { NameCollector } from './identifierFacts';
import { assistantFacts, userFacts, type ActedOn } from './proseFacts';
import { errorFact, RESULT_SCORES, resultFacts } from './resultFacts';
import { DEFAULT_MAX_FACTS, selectFacts } from './selectFacts';
import { saysFixed } from './statementCues';
import { inputValues, termsOf } from './terms';
import { readToolSteps } from './toolSteps';

export interface ExtractOptions {
  /**
   * Messages after the span (the live context). They give no facts of their own; they are read to
   * see whether an error of the span was resolved later.
   */
  readonly after?: readonly Message[];
  /** Calls of earlier messages, for results in the span whose call is not in it. */
  readonly findCall?: (callId: string) => ToolCallBlock | undefined;
  /** Most facts returned. @default 40 */
  readonly maxFacts?: number;
}

/** Characters of a failed result read for the names the error mentions. @default 400 */
export const ERROR_HEAD_CHARS = 400;

/** What an error that nothing resolved gains: it is what the work still has to deal with. @default 0.1 */
export const UNRESOLVED_BONUS = 0.1;

/** The facts of `span`, at most `maxFacts`, in the order they appeared. */
export function extractFacts(span: readonly Message[], options: ExtractOptions = {}): Fact[] {
  const all = options.after && options.after.length > 0 ? [...span, ...options.after] : span;
  const starts = blockStarts(all);
  const steps = readToolSteps(all, options.findCall);
  const activities = new Map(steps.flatMap((s) => (s.call ? [[s.call.id, s.activity] as const] : [])));
  const acted = actedOnByMessage(all, (call) => changes(activities.get(call.id) ?? classifyToolCall(call)));
  const names = new NameCollector();
  const fixes: FixStatement[] = [];
  const found: Candidate[] = [];
  const errors: PendingError[] = [];
  let firstUser = true;

  all.forEach((msg, i) => {
    const site = { messageId: msg.id, seq: starts[i] };
    if (i >= span.length) {
      if (msg.role === 'assistant') collectFixes(msg, site, fixes);
      return;
    }
    if (msg.role !== 'user' && msg.role !== 'assistant') return;
    const prose = proseLines(msg);
    if (msg.role === 'user') {
      found.push(...userFacts(prose, site, firstUser));
      firstUser = false;
    } else {
      const stated = assistantFacts(prose, site, { actedOn: acted[i], endsTurn: endsTurn(all, i) }, fixes);
      for (const fact of stated) {
        if (fact.kind === 'error') {
          errors.push({ fact: () => fact, score: fact.score, site: { seq: fact.seq, keys: [], terms: termsOf(fact.text) } });
        } else found.push(fact);
      }
    }
    for (const line of prose) names.add(line, site, msg.role === 'user');
  });

  for (const step of steps) {
    if (step.messageIndex >= span.length) continue;
    const site: ErrorSite = { seq: step.seq, keys: step.keys, terms: step.terms };
    if (!step.ok) {
      // What an error names (a branch, a module, a file) tells what a later call fixed it on.
      const named = { ...site, terms: [...new Set([...step.terms, ...termsOf(step.result.content.slice(0, ERROR_HEAD_CHARS))])] };
      errors.push({ fact: () => errorFact(step), score: RESULT_SCORES.error, site: named });
      continue;
    }
    found.push(...callFacts(step));
    for (const fact of resultFacts(step)) {
      if (fact.kind === 'error') errors.push({ fact: () => fact, score: fact.score, site });
      else found.push(fact);
    }
  }

  const maxFacts = options.maxFacts ?? DEFAULT_MAX_FACTS;
  found.push(...resolvedErrors(errors, new ResolutionIndex(steps, fixes), maxFacts));
  found.push(...names.facts());
  return selectFacts(found, maxFacts);
}

/** An error found, its line read only if it is among those kept (reading an error's line is the costly part). */
interface PendingError {
  readonly fact: () => Candidate | undefined;
  readonly score: number;
  readonly site: ErrorSite;
}

/**
 * The errors with their resolution and score. When there are many, the lines of at most
 * `2 × maxFacts` are read: the unresolved ones, newest first, then resolved ones spread evenly
 * over the span, so an early error that was worked around can still be chosen.
 */
function resolvedErrors(errors: readonly PendingError[], index: ResolutionIndex, maxFacts: number): Candidate[] {
  const resolved = errors.map((e) => {
    const resolution = index.resolve(e.site);
    return { e, resolution, score: resolution.resolved ? e.score : Math.min(0.95, e.score + UNRESOLVED_BONUS) };
  });
  const limit = 2 * maxFacts;
  let read = resolved;
  if (resolved.length > limit) {
    const open = resolved
      .filter((r) => !r.resolution.resolved)
      .reverse()
      .slice(0, maxFacts);
    const closed = resolved.filter((r) => r.resolution.resolved);
    const room = limit - open.length;
    const step = closed.length / Math.max(1, room);
    const spread = closed.length <= room ? closed : Array.from({ length: room }, (_, i) => closed[Math.floor(i * step)]);
    read = [...open, ...spread];
  }
  return read.flatMap(({ e, resolution, score }) => {
    const fact = e.fact();
    return fact ? [{ ...fact, resolution, score }] : [];
  });
}

/** The sequence number of each message's first block, counted as `readToolSteps` counts. */
function blockStarts(messages: readonly Message[]): number[] {
  const starts: number[] = [];
  let seq = 1;
  for (const msg of messages) {
    starts.push(seq);
    seq += msg.blocks.length;
  }
  return starts;
}

/** For each assistant message, what its own calls name, or else what the next assistant message's calls name (within the turn). */
function actedOnByMessage(messages: readonly Message[], isChange: (call: ToolCallBlock) => boolean): (ActedOn | undefined)[] {
  const out: (ActedOn | undefined)[] = new Array<ActedOn | undefined>(messages.length);
  let next: ActedOn | undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const msg = messages[i];
    if (msg.role === 'user') next = undefined;
    if (msg.role !== 'assistant') continue;
    const calls = toolCalls(msg);
    const own =
      calls.length === 0
        ? undefined
        : {
            text: calls.map((c) => inputValues(c.input)).join('\n'),
            changes: calls.some(isChange),
          };
    out[i] = own ?? next;
    next = own ?? next;
  }
  return out;
}

/** A call that runs something or writes a file, rather than only reading. */
function changes(activity: ToolActivity): boolean {
  return activity.kind === 'command' || (activity.kind === 'file' && activity.action !== 'read');
}

/** An assistant message without calls that a user message (or nothing) follows: the answer of its turn. */
function endsTurn(messages: readonly Message[], i: number): boolean {
  if (toolCalls(messages[i]).length > 0) return false;
  for (let j = i + 1; j < messages.length; j++) {
    const role = messages[j].role;
    if (role === 'user') return true;
    if (role === 'assistant') return false;
  }
  return true;
}

/** Sentences of a later assistant message that say something was fixed. */
function collectFixes(msg: Message, site: { readonly messageId: string; readonly seq: number }, fixes: FixStatement[]): void {
  for (const line of proseLines(msg)) {
    for (const sentence of splitSentences(line)) {
      if (saysFixed(sentence)) fixes.push({ seq: site.seq, messageId: site.messageId, text: sentence, terms: termsOf(sentence) });
    }
  }
}
