/**
 * Who writes a checkpoint's summary: ctx's deterministic summarizer, which never fails and never
 * waits on a model, and a model when one is at hand, behind a circuit breaker and a time limit with
 * the deterministic summary standing in whenever the model's fails. The deterministic summary is
 * written from what was read of the span (see `spanOriginals.ts`); only a model reads its messages.
 */
import { throwIfCancelled } from '../cancellation';
import type { Clock } from '../ports';
import { recordToolActivity } from '../ledger/toolRecord';
import { CircuitBreaker } from '../summary/circuitBreaker';
import { DeterministicSummarizer } from '../summary/deterministicSummarizer';
import type { SpanReading } from '../summary/historySummary';
import { summarizeResiliently } from '../summary/resilientSummary';
import type { Summarizer, SummaryRequest } from '../summary/summarizer';
import type { SpanSummaryRequest, SummarizeFn } from './checkpointing';

export interface SummarizersDeps {
  readonly clock: Clock;
  countText(text: string): Promise<number>;
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
      recordTools: (m) => recordToolActivity(m),
    });
  }

  /** The deterministic summary, from what was read of the span: it takes any span in one call. */
  get floor(): SummarizeFn {
    return async (request, cancellation) => {
      throwIfCancelled(cancellation, 'Summarizing');
      const text = await this.deterministic.summarizeRead(request, readingOf(request), cancellation);
      throwIfCancelled(cancellation, 'Summarizing');
      return { text, summarizedBy: this.deterministic.name };
    };
  }

  /** The model's summary with the deterministic one standing in, or the deterministic one without a model. */
  with(model: Summarizer | undefined): SummarizeFn {
    if (!model) return this.floor;
    return async (request, cancellation) => {
      const { span, ...brief } = request;
      const whole: SummaryRequest = { ...brief, messages: await span.messages() };
      return summarizeResiliently(whole, {
        primary: model,
        floor: this.floorFor(whole, request),
        breaker: this.breaker,
        countText: (t) => this.deps.countText(t),
        cancellation,
        timeoutMs: this.deps.timeoutMs(),
      });
    };
  }

  /** The deterministic summarizer standing in for a model on `whole`: what was read of the span stands for its messages. */
  private floorFor(whole: SummaryRequest, request: SpanSummaryRequest): Summarizer {
    const deterministic = this.deterministic;
    return {
      name: deterministic.name,
      maxInputTokens: deterministic.maxInputTokens,
      summarize: (asked, cancellation) =>
        asked === whole
          ? deterministic.summarizeRead(request, readingOf(request), cancellation)
          : deterministic.summarize(asked, cancellation),
    };
  }
}

/** What the deterministic summary reads of a checkpoint's span. */
function readingOf(request: SpanSummaryRequest): SpanReading {
  return { conversation: request.span.conversation, record: request.span.record, facts: request.facts };
}
