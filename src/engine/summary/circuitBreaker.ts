/**
 * A circuit breaker for the model summarizer, so a model that keeps failing is not waited on at
 * every compression.
 *
 * ```
 * closed ──3 consecutive failures──▶ open ──cool-down over──▶ half-open (one trial allowed)
 *   ▲                                  ▲                         │
 *   └────────── success ───────────────┼─────────────────────────┤
 *                                      └──────── failure ────────┘
 * ```
 */
import type { Clock } from '../ports';

/** Consecutive failures that open the breaker. @default 3 */
export const CIRCUIT_BREAKER_FAILURES = 3;

/**
 * How long the breaker stays open before it allows a trial.
 * @default 5 minutes — long enough to skip a model that is down or rate-limited for several
 * compressions, short enough that a recovered model is used again within the session.
 */
export const CIRCUIT_BREAKER_COOL_DOWN_MS = 5 * 60_000;

/** `closed`: calls go through; `open`: calls are refused; `halfOpen`: one trial call is allowed. */
export type CircuitState = 'closed' | 'open' | 'halfOpen';

/** Tuning of a {@link CircuitBreaker}. */
export interface CircuitBreakerOptions {
  /** Consecutive failures that open the breaker. @default 3 */
  readonly failures?: number;
  /** Milliseconds the breaker stays open. @default 300000 */
  readonly coolDownMs?: number;
}

/** Opens after consecutive failures, allows a trial after a cool-down, closes on success. */
export class CircuitBreaker {
  private consecutive = 0;
  private openedAt: number | undefined;
  /** When the half-open trial was allowed; a trial never reported is given up after a cool-down. */
  private trialAt: number | undefined;
  private readonly threshold: number;
  private readonly coolDownMs: number;

  constructor(
    private readonly clock: Clock,
    options: CircuitBreakerOptions = {},
  ) {
    this.threshold = options.failures ?? CIRCUIT_BREAKER_FAILURES;
    this.coolDownMs = options.coolDownMs ?? CIRCUIT_BREAKER_COOL_DOWN_MS;
  }

  /** `open` while cooling down, `halfOpen` once the cool-down is over until a trial reports. */
  get state(): CircuitState {
    if (this.openedAt === undefined) return 'closed';
    return this.clock.now() - this.openedAt >= this.coolDownMs ? 'halfOpen' : 'open';
  }

  /** Failures since the last success. */
  get consecutiveFailures(): number {
    return this.consecutive;
  }

  /** Milliseconds until a trial is allowed; 0 when one is allowed now. */
  get retryInMs(): number {
    return this.openedAt === undefined ? 0 : Math.max(0, this.openedAt + this.coolDownMs - this.clock.now());
  }

  /**
   * Whether the model may be called now. Closed: always. Open: never. Half-open: once, for a
   * trial, until that trial reports (or one more cool-down passes without a report).
   */
  allows(): boolean {
    const state = this.state;
    if (state === 'closed') return true;
    if (state === 'open') return false;
    const now = this.clock.now();
    if (this.trialAt !== undefined && now - this.trialAt < this.coolDownMs) return false;
    this.trialAt = now;
    return true;
  }

  /** The model answered well: the breaker closes. */
  recordSuccess(): void {
    this.consecutive = 0;
    this.openedAt = undefined;
    this.trialAt = undefined;
  }

  /** The model failed: a failed trial, or the threshold reached, (re)opens the breaker for a cool-down. */
  recordFailure(): void {
    this.consecutive++;
    if (this.openedAt !== undefined || this.consecutive >= this.threshold) {
      this.openedAt = this.clock.now();
      this.trialAt = undefined;
    }
  }
}
