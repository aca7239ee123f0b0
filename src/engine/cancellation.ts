/**
 * Cancellation, shaped like `vscode.CancellationToken` so the host passes its token as it is.
 */
import { Emitter, type Disposable } from './events';

export interface Cancellation {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): Disposable;
}

/** A cancellation that never happens. */
export const NEVER_CANCELLED: Cancellation = {
  isCancellationRequested: false,
  onCancellationRequested: () => ({ dispose: () => undefined }),
};

/** Thrown by engine work that stopped because it was cancelled. */
export class CancelledError extends Error {
  constructor(what = 'The operation') {
    super(`${what} was cancelled.`);
    this.name = 'CancelledError';
  }
}

/** Throws {@link CancelledError} for `what` when `cancellation` was requested. */
export function throwIfCancelled(cancellation: Cancellation, what = 'The operation'): void {
  if (cancellation.isCancellationRequested) throw new CancelledError(what);
}

/** The owner side of a cancellation: `cancel()` trips the `token`; a parent's cancellation trips it too. */
export class CancellationSource implements Disposable {
  private cancelled = false;
  private readonly emitter = new Emitter<void>();
  private readonly parentSubscription: Disposable | undefined;
  readonly token: Cancellation;

  constructor(parent?: Cancellation) {
    const isCancelled = () => this.cancelled;
    this.token = {
      get isCancellationRequested() {
        return isCancelled();
      },
      onCancellationRequested: (listener) => {
        if (this.cancelled) {
          listener();
          return { dispose: () => undefined };
        }
        return this.emitter.event(listener);
      },
    };
    if (parent?.isCancellationRequested) this.cancelled = true;
    else this.parentSubscription = parent?.onCancellationRequested(() => this.cancel());
  }

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.emitter.fire();
  }

  dispose(): void {
    this.parentSubscription?.dispose();
    this.emitter.dispose();
  }
}
