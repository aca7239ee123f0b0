/** One token counter per encoding, each over its own worker thread, shared by every session of the window. */
import { chooseEncoding, type EncodingName, type Logger, TokenCounter, WorkerTokenizer } from '../engine/host/ports';
import type { CtxConfig } from './config';

export class EncodingCounters {
  private readonly counters = new Map<EncodingName, { tokenizer: WorkerTokenizer; counter: TokenCounter }>();

  constructor(private readonly deps: { readonly workerPath: string; readonly logger: Logger; readonly config: () => CtxConfig }) {}

  /** The counter for a model's encoding; one tokenizer (one worker) per encoding. */
  counterFor(model: string | undefined): TokenCounter {
    const encoding = chooseEncoding(model, this.deps.config().encoding);
    let entry = this.counters.get(encoding);
    if (!entry) {
      const tokenizer = new WorkerTokenizer({ workerPath: this.deps.workerPath, encoding, logger: this.deps.logger });
      entry = { tokenizer, counter: new TokenCounter(tokenizer) };
      this.counters.set(encoding, entry);
    }
    return entry.counter;
  }

  dispose(): void {
    for (const { tokenizer } of this.counters.values()) tokenizer.dispose();
    this.counters.clear();
  }
}
