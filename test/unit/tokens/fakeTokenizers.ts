/** Tokenizers whose behaviour a test controls and observes. */
import type { EncodingName, Logger, Tokenizer } from '../../../src/engine/ports';

/** Ready at once; one token per character; records every batch it is asked to count. */
export class SpyTokenizer implements Tokenizer {
  readonly encoding: EncodingName = 'o200k_base';
  readonly ready = true;
  readonly batches: string[][] = [];

  async whenReady(): Promise<void> {}

  async countMany(texts: readonly string[]): Promise<number[]> {
    this.batches.push([...texts]);
    return texts.map((text) => text.length);
  }
}

/** Not ready until the test calls `finishBuild()` (or `failBuild()`); then one token per character. */
export class GatedTokenizer implements Tokenizer {
  readonly encoding: EncodingName = 'o200k_base';
  ready = false;
  buildRequests = 0;
  readonly batches: string[][] = [];
  private settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
  private readonly built = new Promise<void>((resolve, reject) => {
    this.settle = { resolve, reject };
  });

  whenReady(): Promise<void> {
    this.buildRequests++;
    return this.built;
  }

  async countMany(texts: readonly string[]): Promise<number[]> {
    await this.built;
    this.batches.push([...texts]);
    return texts.map((text) => text.length);
  }

  finishBuild(): void {
    this.ready = true;
    this.settle?.resolve();
  }

  failBuild(error: Error): void {
    this.settle?.reject(error);
  }
}

/** Keeps the warnings it is given. */
export class WarningLog implements Logger {
  readonly warnings: string[] = [];
  trace(): void {}
  debug(): void {}
  info(): void {}
  warn(message: string): void {
    this.warnings.push(message);
  }
  error(error: string | Error): void {
    this.warnings.push(String(error));
  }
}
