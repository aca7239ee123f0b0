/** Errors of summarizing, typed so callers can tell the reason without reading messages. */

/** A summarizer's input window cannot hold even the summary instructions and a little of the conversation. */
export class SummaryWindowTooSmallError extends Error {
  constructor(
    readonly summarizer: string,
    readonly maxInputTokens: number,
  ) {
    super(`The input window of ${summarizer} (${maxInputTokens} tokens) is too small for a summary prompt.`);
    this.name = 'SummaryWindowTooSmallError';
  }
}
