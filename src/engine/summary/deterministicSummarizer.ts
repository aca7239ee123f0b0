/**
 * The floor: a summarizer that needs no model. It builds the summary structure (design §4.2) from the messages,
 * the guide and the record of what the tools did, always within the target, in milliseconds, so
 * compression never depends on a model answering.
 */
import { CancelledError, type Cancellation } from '../cancellation';
import type { ToolRecord } from '../model/ledgerTypes';
import { maskSecrets } from '../text/secrets';
import type { Message } from '../types';
import { extractFacts } from '../recall/extractFacts';
import { readConversationFacts } from './conversationFacts';
import { summarizeHistory, type SpanReading } from './historySummary';
import type { Summarizer, SummaryBrief, SummaryRequest } from './summarizer';
import type { CountText } from '../model/countText';
import { compressToolResult } from './toolResultCompression';

/** What the deterministic summarizer needs from the engine. */
export interface DeterministicSummarizerDeps {
  readonly countText: CountText;
  /** Builds the record of files, commands and errors from the tool calls and results of the messages. */
  readonly recordTools: (messages: readonly Message[]) => ToolRecord;
}

/** The deterministic floor under every model summary. Never fails for length; takes any input size. */
export class DeterministicSummarizer implements Summarizer {
  readonly name = 'deterministic';
  readonly maxInputTokens = Number.MAX_SAFE_INTEGER;

  constructor(private readonly deps: DeterministicSummarizerDeps) {}

  async summarize(request: SummaryRequest, cancellation: Cancellation): Promise<string> {
    if (cancellation.isCancellationRequested) throw new CancelledError('Summarizing');
    // Summaries are read in place of the messages; credentials in those stay in the archive only.
    if (request.kind === 'toolResult') return maskSecrets(await compressToolResult(request, this.deps.countText));
    const { messages } = request;
    const read = {
      conversation: readConversationFacts(messages),
      record: this.deps.recordTools(messages),
      facts: request.facts ?? extractFacts(messages),
    };
    return maskSecrets(await summarizeHistory(request, read, this.deps.countText));
  }

  /**
   * The history summary of a span from what was already read of it, without its messages: the
   * merged checkpoint's span, summarized again at every compression, is not read whole again.
   */
  async summarizeRead(request: SummaryBrief, read: SpanReading, cancellation: Cancellation): Promise<string> {
    if (cancellation.isCancellationRequested) throw new CancelledError('Summarizing');
    return maskSecrets(await summarizeHistory(request, read, this.deps.countText));
  }
}
