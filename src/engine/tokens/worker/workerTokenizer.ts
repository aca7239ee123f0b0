import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { EncodingName, Logger, Tokenizer } from '../../ports';
import { LocalTokenizer } from '../localTokenizer';
import { rankLoaderFor } from './rankFiles';
import { isWorkerReply, type CountRequest, type WorkerReply, type WorkerStart } from './workerProtocol';

/** Options for {@link WorkerTokenizer}. */
export interface WorkerTokenizerOptions {
  /** Path to the bundled worker, `dist/tokenizerWorker.js`; its rank files sit in `ranks/` beside it. */
  readonly workerPath: string;
  readonly encoding: EncodingName;
  readonly logger: Logger;
}

/** One `countMany` call waiting for its counts. */
interface Waiter {
  readonly texts: readonly string[];
  readonly resolve: (counts: number[]) => void;
  readonly reject: (error: Error) => void;
}

/** Thrown to callers still waiting when the tokenizer is disposed. */
export class TokenizerDisposedError extends Error {
  constructor() {
    super('The tokenizer was disposed');
    this.name = 'TokenizerDisposedError';
  }
}

/**
 * The extension host's tokenizer: builds and counts in a worker thread so the host never blocks.
 * The worker starts on first use. Calls made in the same turn of the event loop go to the worker
 * as one message. If the worker cannot start, fails to build, or dies, counting moves to an
 * in-process {@link LocalTokenizer} (logged as a warning) and goes on.
 *
 * States: idle → starting → ready; starting or ready → fallback (on any worker failure);
 * any → disposed.
 */
export class WorkerTokenizer implements Tokenizer {
  readonly encoding: EncodingName;
  private worker: Worker | undefined;
  private workerBuilt = false;
  private fallback: LocalTokenizer | undefined;
  private disposed = false;
  private readonly queued: Waiter[] = [];
  private flushScheduled = false;
  private readonly inFlight = new Map<number, Waiter[]>();
  private nextRequestId = 1;
  private readiness: Promise<void> | undefined;
  private settleReadiness: { resolve: () => void; reject: (error: unknown) => void } | undefined;

  constructor(private readonly options: WorkerTokenizerOptions) {
    this.encoding = options.encoding;
  }

  get ready(): boolean {
    return this.workerBuilt || (this.fallback?.ready ?? false);
  }

  whenReady(): Promise<void> {
    if (this.disposed) return Promise.reject(new TokenizerDisposedError());
    if (this.fallback !== undefined) return this.fallback.whenReady();
    if (this.workerBuilt) return Promise.resolve();
    this.readiness ??= new Promise<void>((resolve, reject) => {
      this.settleReadiness = { resolve, reject };
    });
    this.start();
    return this.readiness;
  }

  countMany(texts: readonly string[]): Promise<number[]> {
    if (this.disposed) return Promise.reject(new TokenizerDisposedError());
    if (texts.length === 0) return Promise.resolve([]);
    if (this.fallback !== undefined) return this.fallback.countMany(texts);
    this.start();
    return new Promise<number[]>((resolve, reject) => {
      this.queued.push({ texts, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        queueMicrotask(() => this.flush());
      }
    });
  }

  /** Stops the worker; calls still waiting reject with {@link TokenizerDisposedError}. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    void this.worker?.terminate();
    this.worker = undefined;
    const error = new TokenizerDisposedError();
    for (const waiter of this.takeAllWaiters()) waiter.reject(error);
    this.settleReadiness?.reject(error);
  }

  private start(): void {
    if (this.worker !== undefined || this.fallback !== undefined || this.disposed) return;
    const start: WorkerStart = { encoding: this.encoding };
    try {
      const worker = new Worker(this.options.workerPath, { workerData: start });
      worker.on('message', (reply: unknown) => this.onReply(reply));
      worker.on('error', (error) => this.fallBack('failed', error));
      worker.on('exit', (code) => this.fallBack(`exited with code ${code}`));
      this.worker = worker;
    } catch (error) {
      this.fallBack('could not start', error);
    }
  }

  private onReply(reply: unknown): void {
    if (!isWorkerReply(reply)) {
      this.options.logger.warn('Ignored a malformed message from the tokenizer worker');
      return;
    }
    this.handle(reply);
  }

  private handle(reply: WorkerReply): void {
    switch (reply.type) {
      case 'built':
        this.workerBuilt = true;
        this.options.logger.debug(`Tokenizer ${this.encoding} built in ${Math.round(reply.buildMs)} ms`);
        this.settleReadiness?.resolve();
        this.unrefWhenIdle();
        return;
      case 'buildFailed':
        this.fallBack('could not build the encoder', new Error(reply.message));
        return;
      case 'counts':
        this.deliver(reply.id, reply.counts);
        return;
      case 'countFailed':
        this.fail(reply.id, new Error(reply.message));
        return;
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.queued.splice(0);
    if (batch.length === 0) return;
    if (this.fallback !== undefined) {
      sendTo(this.fallback, batch);
      return;
    }
    // Only dispose() clears the worker without a fallback, and it empties the queue first.
    if (this.worker === undefined) return;
    const request: CountRequest = { id: this.nextRequestId++, texts: batch.flatMap((waiter) => waiter.texts) };
    this.inFlight.set(request.id, batch);
    // Keep the process alive while an answer is owed; see unrefWhenIdle.
    this.worker.ref();
    this.worker.postMessage(request);
  }

  private deliver(id: number, counts: readonly number[]): void {
    const batch = this.inFlight.get(id);
    if (batch === undefined) return;
    this.inFlight.delete(id);
    let offset = 0;
    for (const waiter of batch) {
      waiter.resolve(counts.slice(offset, offset + waiter.texts.length));
      offset += waiter.texts.length;
    }
    this.unrefWhenIdle();
  }

  private fail(id: number, error: Error): void {
    const batch = this.inFlight.get(id);
    if (batch === undefined) return;
    this.inFlight.delete(id);
    for (const waiter of batch) waiter.reject(error);
    this.unrefWhenIdle();
  }

  /** An idle, built worker must not keep a command-line process (or a test run) alive. */
  private unrefWhenIdle(): void {
    if (this.workerBuilt && this.inFlight.size === 0) this.worker?.unref();
  }

  private fallBack(reason: string, error?: unknown): void {
    if (this.fallback !== undefined || this.disposed) return;
    this.options.logger.warn(`The tokenizer worker ${reason}; counting in the extension host instead`, error);
    const worker = this.worker;
    this.worker = undefined;
    this.workerBuilt = false;
    worker?.removeAllListeners();
    void worker?.terminate();
    const fallback = new LocalTokenizer(this.encoding, rankLoaderFor(path.dirname(this.options.workerPath)));
    this.fallback = fallback;
    sendTo(fallback, this.takeAllWaiters());
    if (this.settleReadiness !== undefined) fallback.whenReady().then(this.settleReadiness.resolve, this.settleReadiness.reject);
  }

  private takeAllWaiters(): Waiter[] {
    const waiters = [...[...this.inFlight.values()].flat(), ...this.queued.splice(0)];
    this.inFlight.clear();
    return waiters;
  }
}

function sendTo(tokenizer: Tokenizer, waiters: readonly Waiter[]): void {
  for (const waiter of waiters) tokenizer.countMany(waiter.texts).then(waiter.resolve, waiter.reject);
}
