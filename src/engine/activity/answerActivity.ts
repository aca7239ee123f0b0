/**
 * What ctx did during one answer, gathered as it happens: the events of every round, where the context
 * stood before and after each request, the CRITICAL steps and the warnings. The answer's summary is
 * rendered from it once, at the end (`answerSummaryText.ts`), so the chat never repeats a line; the status
 * bar reads its peak while the answer runs.
 */
import type { CompressionEvent } from '../model/compressionEvent';
import type { NeededFigures } from '../model/preparedContext';
import type { LevelPoint } from '../levelWording';
import { tallyCompressions, type CompressionTally } from './compressionTally';

/** A point with its token count. */
export interface LevelFigures extends LevelPoint {
  readonly tokens: number;
}

/** Where one request started and where ctx's steps left it (a `PreparedContext` is one). */
export interface PreparationFigures {
  /** Before and after, with the earlier lines within `after` named apart: what the answer tells. */
  readonly needed: NeededFigures;
  readonly events: readonly CompressionEvent[];
  readonly critical?: { readonly reason: string };
}

/**
 * The highest point of an answer, and where the steps of that request brought the context: what the next request
 * sends, with the earlier lines within it named by `earlier` (tokens and share of the budget).
 */
export interface Peak {
  readonly before: LevelFigures;
  readonly after: LevelFigures;
  readonly earlier: NeededFigures['earlier'];
}

/** Something that happened several times in one answer, shown once. */
export interface Repeated {
  readonly count: number;
  /** The words of the latest occurrence. */
  readonly text: string;
}

/** Everything an answer's summary says. */
export interface AnswerSummary {
  readonly compressions: CompressionTally;
  readonly snapshots: number;
  readonly peak?: Peak;
  readonly critical?: Repeated;
  readonly drift?: Repeated;
  /** One entry per kind of warning, in the order they first came. */
  readonly warnings: readonly Repeated[];
}

const SNAPSHOT_EVENTS = new Set<CompressionEvent['name']>(['snapshot-created', 'auto-snapshot-created']);

/**
 * Warnings of one kind differ only in their details, which ctx writes in parentheses ("The archive could
 * not be written (ENOSPC …)"): without them, the text is the kind.
 */
export function warningKind(message: string): string {
  let kind = message;
  // Innermost parentheses first, until none are left: details may nest them.
  for (let previous = ''; previous !== kind;) {
    previous = kind;
    kind = kind.replace(/\s*\([^()]*\)/g, '');
  }
  return kind.replace(/\s+/g, ' ').trim();
}

export class AnswerActivity {
  private readonly events: CompressionEvent[] = [];
  private top: Peak | undefined;
  private criticalCount = 0;
  private lastCritical = '';
  private readonly warningsByKind = new Map<string, { count: number; text: string }>();

  /** Events that did not come with a request (tier 1 on a tool result's arrival). */
  addEvents(events: readonly CompressionEvent[]): void {
    this.events.push(...events);
  }

  /** A request's figures: its events, its before and after, and whether it went CRITICAL. */
  addPreparation(p: PreparationFigures): void {
    this.addEvents(p.events);
    const { before, after, earlier } = p.needed;
    if (!this.top || before.usage > this.top.before.usage) this.top = { before, after, earlier };
    if (p.critical) {
      this.criticalCount++;
      this.lastCritical = p.critical.reason;
    }
  }

  addWarnings(messages: readonly string[]): void {
    for (const text of messages) {
      const kind = warningKind(text);
      const seen = this.warningsByKind.get(kind);
      this.warningsByKind.set(kind, { count: (seen?.count ?? 0) + 1, text });
    }
  }

  /** The highest point the context reached so far in this answer. */
  get peak(): Peak | undefined {
    return this.top;
  }

  summary(): AnswerSummary {
    const drift = this.events.filter((e) => e.name === 'drift-detected');
    return {
      compressions: tallyCompressions(this.events),
      snapshots: this.events.filter((e) => SNAPSHOT_EVENTS.has(e.name)).length,
      ...(this.top ? { peak: this.top } : {}),
      ...(this.criticalCount > 0 ? { critical: { count: this.criticalCount, text: this.lastCritical } } : {}),
      ...(drift.length > 0 ? { drift: { count: drift.length, text: drift[drift.length - 1].detail } } : {}),
      warnings: [...this.warningsByKind.values()],
    };
  }
}
