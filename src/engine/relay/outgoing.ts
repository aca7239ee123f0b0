/**
 * What is forwarded to the wrapped model: the caller's leading instructions as it sent them, then
 * the prepared context. A session message that no tier changed goes as the caller's own message
 * (with parts the engine does not model: images, cache markers, reasoning); anything ctx wrote or
 * changed goes as the engine's message. Each says whether it ends with a cache breakpoint
 * (`promptCache/requestLayout.ts`).
 */
import { breakpointsOf } from '../promptCache/requestLayout';
import type { Message } from '../types';

export type Outgoing<Raw> = (
  | /** Exactly as the caller sent it; `system` when the caller gave it as instructions. */
    { readonly kind: 'caller'; readonly raw: Raw; readonly system: boolean }
  | { readonly kind: 'engine'; readonly message: Message }
) & {
  /**
   * Whether the message ends with a cache breakpoint. A caller's message keeps its own where it has one and gets
   * one otherwise; without, it goes without the caller's (the limit of four a request would be passed).
   * @default false
   */
  readonly breakpoint?: boolean;
};

export function outgoingMessages<Raw>(
  pinned: readonly Raw[],
  prepared: readonly Message[],
  rawFor: (message: Message) => Raw | undefined,
): Outgoing<Raw>[] {
  const out: Outgoing<Raw>[] = pinned.map((raw) => ({ kind: 'caller', raw, system: true }));
  for (const message of prepared) {
    const raw = rawFor(message);
    out.push(raw === undefined ? { kind: 'engine', message } : { kind: 'caller', raw, system: message.role === 'system' });
  }
  return out;
}

/** The messages with their cache breakpoints placed; `callerMarked` tells whether a caller's message has its own. */
export function withBreakpoints<Raw>(messages: readonly Outgoing<Raw>[], callerMarked: (raw: Raw) => boolean): Outgoing<Raw>[] {
  const marks = breakpointsOf(
    messages,
    (m) => (m.kind === 'engine' ? m.message : undefined),
    (m) => m.kind === 'caller' && callerMarked(m.raw),
  );
  return messages.map((m, i) => ({ ...m, breakpoint: marks[i] }));
}
