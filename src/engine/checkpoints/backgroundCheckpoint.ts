/**
 * Checkpoints prepared in the background, as an explicit state machine. Work starts early (at ORANGE) so that when
 * the context reaches the trigger a prepared result can be applied without the user waiting.
 *
 * ```
 *            start                 done                take
 *   idle ───────────▶ preparing ───────────▶ ready ───────────▶ applying ──finish──▶ idle
 *    ▲                  │    │                 │
 *    │            error │    │ cancel          │ discard (stale)
 *    │                  ▼    ▼                 ▼
 *    │               failed  cancelled ──▶   idle
 *    └──── reset ───────┴────────┘    (start again from either)
 * ```
 */
import { CancellationSource, CancelledError } from '../cancellation';
import { Emitter } from '../events';

export type BackgroundCheckpointState = 'idle' | 'preparing' | 'ready' | 'applying' | 'failed' | 'cancelled';

/** A prepared result and the basis it was prepared on, so a stale one is never applied. */
export interface Prepared<T> {
  readonly basis: string;
  readonly value: T;
}

export class BackgroundCheckpoint<T> {
  private current: BackgroundCheckpointState = 'idle';
  private basisKey: string | undefined;
  private result: T | undefined;
  private error: unknown;
  private source: CancellationSource | undefined;
  private running: Promise<void> | undefined;
  private readonly stateEmitter = new Emitter<BackgroundCheckpointState>();
  /** Fires on every transition. */
  readonly onDidChangeState = this.stateEmitter.event;

  get state(): BackgroundCheckpointState {
    return this.current;
  }

  /** What the running or ready work was prepared on. */
  get basis(): string | undefined {
    return this.basisKey;
  }

  /** Why the last preparation failed, in its own words. */
  get lastError(): unknown {
    return this.error;
  }

  /**
   * Starts preparing in the background (idle, failed or cancelled → preparing). Ignored while
   * preparing, ready or applying: one piece of work at a time.
   */
  start(basis: string, work: (cancellation: CancellationSource['token']) => Promise<T>): boolean {
    if (this.current === 'preparing' || this.current === 'ready' || this.current === 'applying') return false;
    const source = new CancellationSource();
    this.source = source;
    this.basisKey = basis;
    this.result = undefined;
    this.error = undefined;
    this.transition('preparing');
    this.running = work(source.token).then(
      (value) => {
        if (this.source !== source) return;
        this.result = value;
        this.transition('ready');
      },
      (error: unknown) => {
        if (this.source !== source) return;
        this.error = error;
        this.transition(error instanceof CancelledError || source.token.isCancellationRequested ? 'cancelled' : 'failed');
      },
    );
    return true;
  }

  /** The ready result, left where it is; undefined unless ready. */
  peek(): T | undefined {
    return this.current === 'ready' ? this.result : undefined;
  }

  /**
   * Takes the ready result when it was prepared on `basis` (ready → applying). A ready result on
   * another basis is stale and is discarded (ready → idle).
   */
  take(isValid: (basis: string, value: T) => boolean): Prepared<T> | undefined {
    if (this.current !== 'ready' || this.result === undefined || this.basisKey === undefined) return undefined;
    if (!isValid(this.basisKey, this.result)) {
      this.discard();
      return undefined;
    }
    const taken = { basis: this.basisKey, value: this.result };
    this.result = undefined;
    this.transition('applying');
    return taken;
  }

  /** Applying is over (applying → idle). */
  finish(): void {
    if (this.current !== 'applying') return;
    this.clear();
    this.transition('idle');
  }

  /** Stops the preparation (preparing → cancelled). */
  cancel(): void {
    if (this.current !== 'preparing') return;
    this.source?.cancel();
    this.source = undefined;
    this.transition('cancelled');
  }

  /** Forgets a ready, failed or cancelled result (→ idle), or cancels the preparation first. */
  reset(): void {
    if (this.current === 'applying') return;
    if (this.current === 'preparing') this.cancel();
    this.clear();
    this.transition('idle');
  }

  /** Resolves when the current preparation has settled (at once when nothing runs). */
  async settled(): Promise<void> {
    await this.running;
  }

  dispose(): void {
    this.source?.cancel();
    this.stateEmitter.dispose();
  }

  private discard(): void {
    this.clear();
    this.transition('idle');
  }

  private clear(): void {
    this.source?.dispose();
    this.source = undefined;
    this.result = undefined;
    this.basisKey = undefined;
  }

  private transition(to: BackgroundCheckpointState): void {
    if (this.current === to) return;
    this.current = to;
    this.stateEmitter.fire(to);
  }
}
