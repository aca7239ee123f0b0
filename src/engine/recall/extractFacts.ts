/**
 * Fact extraction: what a span of the conversation established, read from the messages alone
 * (no markers needed, though marker lines win): the user's requests, the assistant's decisions,
 * errors with how they were resolved, outcomes, files and names. Deterministic, and linear in the
 * span's text: every message and block is read a fixed number of times, and error resolution is
 * answered from indexes built once.
 */
import { classifyToolCall } from '../ledger/toolActivity';
import { waitingKeys } from '../ledger/fixKeys';
import { authoredLineSet, proseLines, splitSentences } from '../text/prose';
import { messageText, toolCalls, userWrote, type Message, type ToolCallBlock } from '../types';
import { searchFindings } from './searchFindings';
import { callFacts, failedCallPurpose } from './callFacts';
import { textEditFacts } from './fileFacts';
import { textEdits } from './textEdits';
import { LaterEdits } from './laterEdits';
import type { Candidate } from './candidate';
import { diagnosticCandidates } from './diagnosticLines';
import { matchForm } from '../facts/factKey';
import { ResolutionIndex, type ErrorSite, type FixStatement } from './errorResolution';
import type { Fact } from '../model/fact';
import { NameCollector } from './identifierFacts';
import { resolvedErrors, type PendingError } from './pendingErrors';
import { ownWordCandidates, resultsBefore } from './ownWords';
import { withTemplatesShared } from './templates';
import { raisedMessageCandidates } from './raisedMessages';
import { assistantFacts, hostErrorFacts, userFacts } from './proseFacts';
import { errorFact, RESULT_SCORES, resultFacts } from './resultFacts';
import { DEFAULT_MAX_FACTS, selectFacts } from './selectFacts';
import { saysFixed } from './statementCues';
import { termsOf } from './terms';
import { readToolSteps } from './toolSteps';
import { PrintedAnyway } from './printedAnyway';
import { reportFailures } from './reportFacts';
import { actedOnByMessage, blockStarts, changes, endsTurn, readsFile } from './turns';

/** What `extractFacts` may read besides the span, and how many facts it returns. */
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
  /**
   * Whether the agent's narration (`sentenceRole`) is returned, flagged: for the earlier lines'
   * pool, which shows the agent's own lines; never for a summary or the recall check. @default false
   */
  readonly narration?: boolean;
  /**
   * Whether every short line of the agent is one candidate, as written (`WHOLE_LINE_CHARS`), its latest message's too:
   * for the earlier lines' pool, which shows lines as written and has no phase or next step to state. @default false
   */
  readonly asWritten?: boolean;
}

/** Characters of a failed result read for the names the error mentions. @default 400 */
export const ERROR_HEAD_CHARS = 400;

/**
 * Whether the user turn at `i` is the host's alone, between an assistant's reply that called nothing and the
 * assistant's next words: the agent had finished, and the host sent it back to work.
 */
function sentBack(messages: readonly Message[], i: number): boolean {
  const before = messages[i - 1];
  return (
    i > 0 &&
    !userWrote(messages[i]) &&
    before.role === 'assistant' &&
    toolCalls(before).length === 0 &&
    messages[i + 1]?.role === 'assistant'
  );
}

/** The facts of `span`, at most `maxFacts`, in the order they appeared. */
export function extractFacts(span: readonly Message[], options: ExtractOptions = {}): Fact[] {
  const all = options.after && options.after.length > 0 ? [...span, ...options.after] : span;
  const starts = blockStarts(all);
  const steps = readToolSteps(all, options.findCall);
  const activities = new Map(steps.flatMap((s) => (s.call ? [[s.call.id, s.activity] as const] : [])));
  const activityOf = (call: ToolCallBlock) => activities.get(call.id) ?? classifyToolCall(call);
  const acted = actedOnByMessage(
    all,
    (call) => changes(activityOf(call)),
    (call) => readsFile(activityOf(call)),
  );
  const names = new NameCollector();
  const fixes: FixStatement[] = [];
  const found: Candidate[] = [];
  /** What the assistant said, in order, for the templates among it (see `templates.ts`). */
  const said: Candidate[] = [];
  const errors: PendingError[] = [];
  let firstUser = true;
  const seen = all.map((msg, i) => (i < span.length && msg.role === 'assistant' ? resultsBefore(all, i) : ''));

  all.forEach((msg, i) => {
    const site = { messageId: msg.id, seq: starts[i] };
    if (i >= span.length) {
      if (msg.role === 'assistant') collectFixes(msg, site, fixes);
      return;
    }
    if (msg.role !== 'user' && msg.role !== 'assistant') return;
    const prose = proseLines(msg);
    if (msg.role === 'user') {
      found.push(...userFacts(prose, site, firstUser, authoredLineSet(msg)));
      for (const fact of hostErrorFacts(msg, site, sentBack(all, i))) {
        errors.push({ fact: () => fact, score: fact.score, site: { seq: fact.seq, keys: [], terms: termsOf(fact.text) } });
      }
      // A turn the host wrote whole (a reminder) comes before the user's first request, not as it.
      if (userWrote(msg)) firstUser = false;
    } else {
      const context = { actedOn: acted[i], endsTurn: endsTurn(all, i), seen: seen[i], authored: authoredLineSet(msg) };
      const stated = assistantFacts(prose, site, context, fixes);
      // An edit written in the reply (Aider's) is kept as an edit tool's is.
      for (const edit of textEdits(messageText(msg))) found.push(...textEditFacts(edit, site));
      for (const fact of stated) {
        if (fact.kind === 'error') {
          errors.push({ fact: () => fact, score: fact.score, site: { seq: fact.seq, keys: [], terms: termsOf(fact.text) } });
        } else said.push(fact);
      }
    }
    for (const line of prose) names.add(line, site, msg.role === 'user');
  });

  const sites = span.map((msg, i) => ({
    messageId: msg.id,
    seq: starts[i],
    endsTurn: endsTurn(all, i),
    seen: seen[i],
    ...(acted[i] ? { actedOn: acted[i] } : {}),
  }));
  const maxFacts = options.maxFacts ?? DEFAULT_MAX_FACTS;
  for (const fact of ownWordCandidates(span, sites, maxFacts, options.asWritten === true)) {
    if (fact.kind === 'error') {
      errors.push({ fact: () => fact, score: fact.score, site: { seq: fact.seq, keys: [], terms: termsOf(fact.text) } });
    } else said.push(fact);
  }
  found.push(...withTemplatesShared(said));

  const anyway = new PrintedAnyway(steps);
  const later = new LaterEdits(steps);
  const stepFacts: Candidate[] = [];
  for (const step of steps) {
    if (step.messageIndex >= span.length) continue;
    const site: ErrorSite = { seq: step.seq, keys: waitingKeys(step.activity, step.call), terms: step.terms };
    const diagnostics = diagnosticCandidates(step);
    if (!step.ok) {
      // What an error names (a branch, a module, a file) tells which sentence of the assistant is about it.
      const named = { ...site, terms: [...new Set([...step.terms, ...termsOf(step.result.content.slice(0, ERROR_HEAD_CHARS))])] };
      const main = diagnostics.length > 0 ? errorFact(step) : undefined;
      errors.push({ fact: () => main ?? errorFact(step), score: RESULT_SCORES.error, site: named });
      stepFacts.push(...failedCallPurpose(step));
      // The error's other diagnostic lines and a runner's failing tally, each once: the agent may have worked around any of them.
      const mainForm = main ? matchForm(main.key) : undefined;
      const tallies = resultFacts(step, anyway).filter((f) => f.kind === 'error');
      for (const fact of [...diagnostics, ...tallies]) {
        if (matchForm(fact.key) !== mainForm) errors.push({ fact: () => fact, score: fact.score, site: named });
      }
      continue;
    }
    // A line printed by a call that succeeded is resolved once it stops appearing, not by the call succeeding again.
    const printed = (fact: Candidate): ErrorSite => ({ ...site, terms: termsOf(fact.text), printed: fact.key });
    for (const fact of diagnostics) errors.push({ fact: () => fact, score: fact.score, site: printed(fact) });
    stepFacts.push(...callFacts(step, later), ...searchFindings(step), ...raisedMessageCandidates(step));
    // A line read as an error is not also what the step came to: one verdict per line.
    const readAsErrors = new Set(diagnostics.map((d) => matchForm(d.key)));
    for (const fact of [...resultFacts(step, anyway), ...reportFailures(step)]) {
      if (fact.kind === 'error') errors.push({ fact: () => fact, score: fact.score, site: printed(fact) });
      else if (!readAsErrors.has(matchForm(fact.key))) stepFacts.push(fact);
    }
  }
  // One edit repeated over numbered files is one template, as a sentence the agent repeats is.
  found.push(...withTemplatesShared(stepFacts));

  found.push(...resolvedErrors(errors, new ResolutionIndex(steps, fixes), maxFacts));
  found.push(...withoutNamesHeldBy(withoutToolVocabulary(names.facts(), all), found));
  return selectFacts(options.narration === true ? found : found.filter((f) => f.narration !== true), maxFacts);
}

/**
 * Names that a fact's key already holds whole: a file keyed on the tool's confirmation line
 * ("File created successfully at: /path") holds its path, which needs no fact of its own.
 */
function withoutNamesHeldBy(names: readonly Candidate[], facts: readonly Candidate[]): Candidate[] {
  const artifacts = facts.filter((f) => f.kind === 'artifact' && f.key.includes(' ')).map((f) => f.key);
  if (artifacts.length === 0) return [...names];
  return names.filter((n) => n.kind !== 'artifact' || !artifacts.some((key) => key !== n.key && key.includes(n.key)));
}

/**
 * Names that are the tools' own vocabulary: a tool's name or one of its arguments' names says how
 * the agent worked, not what the session is about, and every request lists the tools anyway.
 */
function withoutToolVocabulary(names: readonly Candidate[], messages: readonly Message[]): Candidate[] {
  const vocabulary = new Set<string>();
  for (const msg of messages) {
    for (const block of msg.blocks) {
      if (block.type !== 'toolCall') continue;
      vocabulary.add(block.name.toLowerCase());
      if (block.input && typeof block.input === 'object') for (const key of Object.keys(block.input)) vocabulary.add(key.toLowerCase());
    }
  }
  return vocabulary.size === 0 ? [...names] : names.filter((n) => !vocabulary.has(n.key.toLowerCase()));
}

/** Sentences of a later assistant message that say something was fixed. */
function collectFixes(msg: Message, site: { readonly messageId: string; readonly seq: number }, fixes: FixStatement[]): void {
  for (const line of proseLines(msg)) {
    for (const sentence of splitSentences(line)) {
      if (saysFixed(sentence)) fixes.push({ seq: site.seq, messageId: site.messageId, text: sentence, terms: termsOf(sentence) });
    }
  }
}
