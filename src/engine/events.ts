/** A minimal event emitter with the same shape as `vscode.Event`, so the host can subscribe as usual. */

export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (e: T) => void, thisArgs?: unknown, disposables?: Disposable[]) => Disposable;

export class Emitter<T> implements Disposable {
  private listeners = new Set<(e: T) => void>();

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const bound = (e: T) => listener.call(thisArgs, e);
    this.listeners.add(bound);
    const subscription = { dispose: () => void this.listeners.delete(bound) };
    disposables?.push(subscription);
    return subscription;
  };

  fire(e: T): void {
    for (const listener of [...this.listeners]) listener(e);
  }

  dispose(): void {
    this.listeners.clear();
  }
}
