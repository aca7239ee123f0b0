import type { Clock } from '../../engine/host/ports';

/**
 * Time as the transcript tells it: each message's own timestamp once it arrives, so offloaded
 * file names and the compression history carry the session's times, and a replay of the same
 * file gives the same files. Time never runs backwards; messages without a timestamp keep the
 * previous one.
 */
export class ReplayClock implements Clock {
  constructor(private time: number) {}

  now(): number {
    return this.time;
  }

  /** Moves to a message's timestamp, when it has one later than the current time. */
  arrive(at: number | undefined): void {
    if (at !== undefined && Number.isFinite(at) && at > this.time) this.time = at;
  }
}
