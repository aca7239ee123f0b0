/**
 * A one-line progress bar on standard error, for replays long enough to wonder about. It stays
 * silent for the first moments (a short replay should not flicker) and redraws a few times a second.
 */
import type { Terminal } from './terminal';

/** Nothing is drawn before this: a replay that finishes sooner shows no bar at all. */
export const PROGRESS_DELAY_MS = 400;
/** Redrawing more often than this only costs time. */
export const PROGRESS_INTERVAL_MS = 100;
const BAR_WIDTH = 30;

export class ProgressBar {
  private readonly started: number;
  private lastDrawn = -Infinity;
  private drawn = false;

  constructor(
    private readonly terminal: Terminal,
    private readonly label: string,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.started = now();
  }

  /** Shows `done` of `total`, with a short note (tokens and level, say). */
  update(done: number, total: number, note: string): void {
    const at = this.now();
    if (at - this.started < PROGRESS_DELAY_MS || (at - this.lastDrawn < PROGRESS_INTERVAL_MS && done < total)) return;
    this.lastDrawn = at;
    this.drawn = true;
    const share = total > 0 ? done / total : 1;
    const filled = Math.round(share * BAR_WIDTH);
    const line = `${this.label} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${done}/${total} ${note}`;
    this.terminal.err(`\r${line.slice(0, Math.max(10, this.terminal.errColumns - 1))}\x1b[K`);
  }

  /** Clears the bar, so what follows starts on a clean line. */
  finish(): void {
    if (this.drawn) this.terminal.err('\r\x1b[K');
  }
}
