/**
 * Who writes a checkpoint's summary: ctx's deterministic summarizer, which never fails and never
 * waits on a model, and a model when one is at hand, behind a circuit breaker and a time limit with
 * the deterministic summary standing in whenever the model's fails.
 */
import type { Clock } from '../ports';
import type { RangeRecords } from '../ledger/rangeRecords';
import { summarizeInChunks } from '../summary/chunkedSummary';
import { CircuitBreaker } from '../summary/circuitBreaker';
import { DeterministicSummarizer } from '../summary/deterministicSummarizer';
import { summarizeResiliently } from '../summary/resilientSummary';
import type { Summarizer } from '../summary/summarizer';
import type { SummarizeFn } from './checkpointing';

export interface SummarizersDeps {
  readonly clock: Clock;
  countText(text: string): Promise<number>;
  readonly rangeRecords: RangeRecords;
  /** The time a model's summary may take, in milliseconds. */
  timeoutMs(): number;
}

export class CheckpointSummarizers {
  private readonly breaker: CircuitBreaker;
  /** ctx's own deterministic summarizer. */
  readonly deterministic: DeterministicSummarizer;

  constructor(private readonly deps: SummarizersDeps) {
    this.breaker = new CircuitBreaker(deps.clock);
    this.deterministic = new DeterministicSummarizer({
      countText: (t) => deps.countText(t),
      recordTools: (m) => deps.rangeRecords.recordOf(m),
    });
  }

  /** The deterministic summary, in chunks when the span is larger than one request. */
  get floor(): SummarizeFn {
    return async (request, cancellation) => ({
      text: await summarizeInChunks(this.deterministic, request, { countText: (t) => this.deps.countText(t), cancellation }),
      summarizedBy: this.deterministic.name,
    });
  }

  /** The model's summary with the deterministic one standing in, or the deterministic one without a model. */
  with(model: Summarizer | undefined): SummarizeFn {
    if (!model) return this.floor;
    return (request, cancellation) =>
      summarizeResiliently(request, {
        primary: model,
        floor: this.deterministic,
        breaker: this.breaker,
        countText: (t) => this.deps.countText(t),
        cancellation,
        timeoutMs: this.deps.timeoutMs(),
      });
  }
}
