import * as assert from 'node:assert/strict';
import { CIRCUIT_BREAKER_COOL_DOWN_MS, CIRCUIT_BREAKER_FAILURES, CircuitBreaker } from '../../../src/engine/summary/circuitBreaker';
import { FakeClock } from '../support/fakes';

describe('circuit breaker', () => {
  it('starts closed and allows calls', () => {
    const breaker = new CircuitBreaker(new FakeClock());
    assert.equal(breaker.state, 'closed');
    assert.equal(breaker.allows(), true);
  });

  it(`opens after ${CIRCUIT_BREAKER_FAILURES} consecutive failures and then refuses calls`, () => {
    const breaker = new CircuitBreaker(new FakeClock());
    breaker.recordFailure();
    breaker.recordFailure();
    assert.equal(breaker.state, 'closed');
    breaker.recordFailure();
    assert.equal(breaker.state, 'open');
    assert.equal(breaker.allows(), false);
    assert.equal(breaker.retryInMs, CIRCUIT_BREAKER_COOL_DOWN_MS);
  });

  it('counts only consecutive failures: a success in between resets the count', () => {
    const breaker = new CircuitBreaker(new FakeClock());
    breaker.recordFailure();
    breaker.recordFailure();
    breaker.recordSuccess();
    breaker.recordFailure();
    breaker.recordFailure();
    assert.equal(breaker.state, 'closed');
  });

  it('half-opens after the cool-down and allows exactly one trial', () => {
    const clock = new FakeClock();
    const breaker = new CircuitBreaker(clock);
    for (let i = 0; i < 3; i++) breaker.recordFailure();
    clock.advance(CIRCUIT_BREAKER_COOL_DOWN_MS - 1);
    assert.equal(breaker.allows(), false);
    clock.advance(1);
    assert.equal(breaker.state, 'halfOpen');
    assert.equal(breaker.allows(), true);
    assert.equal(breaker.allows(), false);
  });

  it('closes when the trial succeeds', () => {
    const clock = new FakeClock();
    const breaker = new CircuitBreaker(clock);
    for (let i = 0; i < 3; i++) breaker.recordFailure();
    clock.advance(CIRCUIT_BREAKER_COOL_DOWN_MS);
    assert.equal(breaker.allows(), true);
    breaker.recordSuccess();
    assert.equal(breaker.state, 'closed');
    assert.equal(breaker.consecutiveFailures, 0);
    assert.equal(breaker.allows(), true);
  });

  it('opens again for a full cool-down when the trial fails', () => {
    const clock = new FakeClock();
    const breaker = new CircuitBreaker(clock);
    for (let i = 0; i < 3; i++) breaker.recordFailure();
    clock.advance(CIRCUIT_BREAKER_COOL_DOWN_MS);
    assert.equal(breaker.allows(), true);
    breaker.recordFailure();
    assert.equal(breaker.state, 'open');
    assert.equal(breaker.allows(), false);
    clock.advance(CIRCUIT_BREAKER_COOL_DOWN_MS);
    assert.equal(breaker.allows(), true);
  });

  it('allows a new trial when the previous one never reported for a whole cool-down', () => {
    const clock = new FakeClock();
    const breaker = new CircuitBreaker(clock);
    for (let i = 0; i < 3; i++) breaker.recordFailure();
    clock.advance(CIRCUIT_BREAKER_COOL_DOWN_MS);
    assert.equal(breaker.allows(), true);
    clock.advance(CIRCUIT_BREAKER_COOL_DOWN_MS);
    assert.equal(breaker.allows(), true);
  });

  it('takes its threshold and cool-down from options', () => {
    const clock = new FakeClock();
    const breaker = new CircuitBreaker(clock, { failures: 1, coolDownMs: 1000 });
    breaker.recordFailure();
    assert.equal(breaker.state, 'open');
    clock.advance(1000);
    assert.equal(breaker.state, 'halfOpen');
  });
});
