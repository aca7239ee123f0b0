/**
 * Whether an error was resolved, and how: the same command (or file operation) succeeding later,
 * a different command or edit succeeding later on the same thing (a path, a script, a name the
 * error's call also named), or the assistant saying it is fixed. Built once from the steps and
 * statements of a stretch of conversation; each question is answered by binary searches, so a
 * long session with many errors costs no more than reading it.
 */
import { shortenEnd } from '../text/shorten';
import { editChange } from './editChange';
import type { ErrorResolution } from '../model/fact';
import type { ToolStep } from './toolSteps';

/**
 * A term named by more than this share of all calls says nothing about which call fixed what
 * (a project folder, a common script). @default 0.5
 */
export const COMMON_TERM_SHARE = 0.5;
/** …unless it is named by this few calls at most. @default 3 */
export const COMMON_TERM_MIN_CALLS = 3;
/** Longest command or sentence quoted as what resolved an error. @default 100 */
export const RESOLUTION_CHARS = 100;

/** Fix statements read after an error before giving up on finding one about it. @default 8 */
export const STATEMENTS_READ = 8;
/**
 * How far after an error (in blocks, about two to four turns) a fix statement that names none of
 * its terms is still taken to be about it. @default 12
 */
export const STATEMENT_REACH_BLOCKS = 12;

/** An assistant sentence saying something works now or was fixed. */
export interface FixStatement {
  readonly seq: number;
  readonly messageId: string;
  readonly text: string;
  readonly terms: readonly string[];
}

/** The error to resolve: where it happened and what it was about. */
export interface ErrorSite {
  readonly seq: number;
  readonly keys: readonly string[];
  readonly terms: readonly string[];
}

interface Event {
  readonly seq: number;
  readonly messageId: string;
  /** What resolved the error, in a few words; worded only for the events an error is resolved by. */
  by(): string;
}

/** Answers, for each error, whether and how it was resolved later; built once from the steps and fix statements. */
export class ResolutionIndex {
  private readonly byKey = new Map<string, Event[]>();
  private readonly byTerm = new Map<string, Event[]>();
  private readonly callsNaming = new Map<string, number>();
  private readonly errors: { readonly seq: number }[] = [];
  private readonly statements: FixStatement[];
  private readonly calls: number;

  /** `steps` and `statements` in order. */
  constructor(steps: readonly ToolStep[], statements: readonly FixStatement[]) {
    this.statements = [...statements];
    this.calls = steps.length;
    for (const step of steps) {
      for (const term of step.terms) this.callsNaming.set(term, (this.callsNaming.get(term) ?? 0) + 1);
      if (!step.ok) {
        this.errors.push({ seq: step.seq });
        continue;
      }
      if (step.activity.kind === 'file' && step.activity.action === 'read') continue;
      const event: Event = { seq: step.seq, messageId: step.messageId, by: () => successWords(step, false) };
      const again: Event = { seq: step.seq, messageId: step.messageId, by: () => successWords(step, true) };
      for (const key of step.keys) push(this.byKey, key, again);
      for (const term of step.terms) push(this.byTerm, term, event);
    }
  }

  /** How the error at `site` was resolved after it, the earliest way found. */
  resolve(site: ErrorSite): ErrorResolution {
    const candidates: Event[] = [];
    for (const key of site.keys) {
      const again = firstAfter(this.byKey.get(key), site.seq);
      if (again) candidates.push(again);
    }
    for (const term of site.terms) {
      if (this.isCommon(term)) continue;
      const other = firstAfter(this.byTerm.get(term), site.seq);
      if (other) candidates.push(other);
    }
    const said = this.statementAfter(site);
    if (said) candidates.push(said);
    if (candidates.length === 0) return { resolved: false };
    const first = candidates.reduce((a, b) => (b.seq < a.seq ? b : a));
    return { resolved: true, by: first.by(), messageId: first.messageId };
  }

  private isCommon(term: string): boolean {
    const count = this.callsNaming.get(term) ?? 0;
    return count > COMMON_TERM_MIN_CALLS && count > this.calls * COMMON_TERM_SHARE;
  }

  /**
   * The first fix statement after the error that names one of its terms, or that comes soon after
   * it and before the next error (then it can only be about this one). Only the next few
   * statements are read.
   */
  private statementAfter(site: ErrorSite): Event | undefined {
    const from = lowerBound(this.statements, site.seq);
    const nextError = this.errors[lowerBound(this.errors, site.seq)]?.seq ?? Number.POSITIVE_INFINITY;
    for (let i = from; i < Math.min(this.statements.length, from + STATEMENTS_READ); i++) {
      const s = this.statements[i];
      const near = s.seq < nextError && s.seq - site.seq <= STATEMENT_REACH_BLOCKS;
      if (near || s.terms.some((t) => site.terms.includes(t))) {
        return { seq: s.seq, messageId: s.messageId, by: () => `the assistant said "${shortenEnd(s.text, RESOLUTION_CHARS)}"` };
      }
    }
    return undefined;
  }
}

/**
 * What a successful step did, in a few words; `again` when it repeats the failed call. An edit
 * that resolved an error is named with the first line it put in: the fix itself.
 */
function successWords(step: ToolStep, again: boolean): string {
  const subject = shortenEnd((step.subject ?? step.call?.name ?? 'a tool call').replace(/\s+/g, ' '), RESOLUTION_CHARS);
  if (step.activity.kind === 'file') {
    const added = step.activity.action === 'edited' && step.call ? editChange(step.call.input)?.added : undefined;
    const words = `${step.activity.action} ${subject}`;
    return added === undefined ? words : `${words}, putting in \`${shortenEnd(added, RESOLUTION_CHARS)}\``;
  }
  return again ? `\`${subject}\` succeeded when run again` : `\`${subject}\` succeeded`;
}

function push(map: Map<string, Event[]>, key: string, event: Event): void {
  const list = map.get(key);
  if (list) list.push(event);
  else map.set(key, [event]);
}

/** The first event strictly after `seq` in a list sorted by `seq`. */
function firstAfter(list: readonly Event[] | undefined, seq: number): Event | undefined {
  if (!list) return undefined;
  const i = lowerBound(list, seq);
  return list[i];
}

/** Index of the first item whose `seq` is greater than `seq`. */
function lowerBound(list: readonly { readonly seq: number }[], seq: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].seq <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
