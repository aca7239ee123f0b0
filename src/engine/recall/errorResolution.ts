/**
 * Whether an error was resolved, and how, by one rule wherever it is shown. An error a failed call
 * reported is resolved as the ledger's tool record resolves it (`ledger/fixKeys.ts`): by the same
 * command succeeding later, or by a write of the file it was about; so a checkpoint never calls
 * resolved what the ledger shows open. An error line a call printed while it succeeded (a warning,
 * a failing check in a passing run) is resolved when the same call runs again without printing
 * it: the error stopped appearing. A sentence of the assistant saying it fixed what the line
 * names resolves it too. Built once from the steps and statements of a stretch of conversation;
 * each question is answered by binary searches, so a long session with many errors costs no more
 * than reading it.
 */
import { subjectKey } from '../ledger/commandKey';
import { fixingKeys } from '../ledger/fixKeys';
import { holdsKey, matchForm } from '../facts/factKey';
import { shortenEnd } from '../text/shorten';
import { editChange } from './editChange';
import type { ErrorResolution } from '../model/fact';
import type { ToolStep } from './toolSteps';

/** Longest command or sentence quoted as what resolved an error. @default 100 */
export const RESOLUTION_CHARS = 100;

/** Fix statements read after an error before giving up on finding one about it. @default 8 */
export const STATEMENTS_READ = 8;

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
  /** The keys of the calls that fix it (see `waitingKeys`). */
  readonly keys: readonly string[];
  readonly terms: readonly string[];
  /**
   * For an error line a successful call printed: the line. It is resolved when the same call runs
   * again without printing it, or when the assistant says it fixed what it names; a failed call's
   * error only by the call that fixes it, as the ledger has it.
   */
  readonly printed?: string;
}

interface Event {
  readonly seq: number;
  readonly messageId: string;
  /** True when what the call printed holds the error line. */
  prints(line: string): boolean;
  /** What resolved the error waiting on `key`, in a few words; worded only for the events an error is resolved by. */
  by(key?: string): string;
}

/** Answers, for each error, whether and how it was resolved later; built once from the steps and fix statements. */
export class ResolutionIndex {
  private readonly byKey = new Map<string, Event[]>();
  private readonly statements: FixStatement[];

  /** `steps` and `statements` in order. */
  constructor(steps: readonly ToolStep[], statements: readonly FixStatement[]) {
    this.statements = [...statements];
    for (const step of steps) {
      if (!step.ok) continue;
      let printed: string | undefined;
      const own = step.activity.kind === 'command' && step.subject !== undefined ? subjectKey(step.subject) : undefined;
      const event: Event = {
        seq: step.seq,
        messageId: step.messageId,
        prints: (line) => holdsKey((printed ??= matchForm(step.result.content)), line),
        by: (key) => successWords(step, key !== undefined && key === own),
      };
      for (const key of fixingKeys(step.activity, step.call)) push(this.byKey, key, event);
    }
  }

  /** How the error at `site` was resolved after it, the earliest way found. */
  resolve(site: ErrorSite): ErrorResolution {
    const candidates: { readonly event: Event; readonly key?: string }[] = [];
    for (const key of site.keys) {
      const fix = site.printed === undefined ? firstAfter(this.byKey.get(key), site.seq) : this.runWithout(key, site);
      if (fix) candidates.push({ event: fix, key });
    }
    const said = site.printed === undefined ? undefined : this.statementAfter(site);
    if (said) candidates.push({ event: said });
    if (candidates.length === 0) return { resolved: false };
    const first = candidates.reduce((a, b) => (b.event.seq < a.event.seq ? b : a));
    return { resolved: true, by: first.event.by(first.key), messageId: first.event.messageId };
  }

  /** The first later run under `key` whose output no longer holds the site's printed line. */
  private runWithout(key: string, site: ErrorSite): Event | undefined {
    const list = this.byKey.get(key);
    if (!list || site.printed === undefined) return undefined;
    const line = site.printed;
    for (let i = lowerBound(list, site.seq); i < list.length; i++) {
      if (!list[i].prints(line)) return list[i];
    }
    return undefined;
  }

  /** The first of the next few fix statements after the error that names one of its terms. */
  private statementAfter(site: ErrorSite): Event | undefined {
    const from = lowerBound(this.statements, site.seq);
    for (let i = from; i < Math.min(this.statements.length, from + STATEMENTS_READ); i++) {
      const s = this.statements[i];
      if (s.terms.some((t) => site.terms.includes(t))) {
        const by = () => `the assistant said "${shortenEnd(s.text, RESOLUTION_CHARS)}"`;
        return { seq: s.seq, messageId: s.messageId, prints: () => false, by };
      }
    }
    return undefined;
  }
}

/**
 * What a successful step did, in a few words; `again` when it repeats the failed command. An edit
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
