/**
 * The floor: a summarizer that needs no model. It builds the summary structure (design §4.2) from the messages,
 * the guide and the record of what the tools did, always within the target, in milliseconds, so
 * compression never depends on a model answering.
 */
import { CancelledError, type Cancellation } from '../cancellation';
import type { ToolRecord } from '../model/ledgerTypes';
import { maskSecrets } from '../text/secrets';
import type { Message } from '../types';
import { summarizeHistory } from './historySummary';
import type { Summarizer, SummaryRequest } from './summarizer';
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
    return maskSecrets(await summarizeHistory(request, this.deps.recordTools(request.messages), this.deps.countText));
  }
}
