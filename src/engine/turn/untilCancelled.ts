/**
 * Reads a stream until it ends or the request is cancelled, whichever comes first: a model that
 * ignores cancellation must not hold the request open, and nothing more is forwarded once the
 * caller has stopped listening.
 */
import type { Cancellation } from '../cancellation';

/** 'cancelled' when the cancellation came first; errors of the stream are thrown. */
export async function readUntilCancelled<T>(
  parts: AsyncIterable<T>,
  cancellation: Cancellation,
  onPart: (part: T) => void,
): Promise<'done' | 'cancelled'> {
  let subscription: { dispose(): void } | undefined;
  const cancelled = new Promise<'cancelled'>((resolve) => {
    subscription = cancellation.onCancellationRequested(() => resolve('cancelled'));
    if (cancellation.isCancellationRequested) resolve('cancelled');
  });
  const iterator = parts[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), cancelled]);
      if (next === 'cancelled') return 'cancelled';
      if (next.done) return 'done';
      onPart(next.value);
    }
  } finally {
    subscription?.dispose();
    if (cancellation.isCancellationRequested) void iterator.return?.()?.catch(() => undefined);
  }
}
