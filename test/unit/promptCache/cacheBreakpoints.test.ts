import * as assert from 'node:assert/strict';
import { MAX_CACHE_BREAKPOINTS, placeBreakpoints } from '../../../src/engine/promptCache/cacheBreakpoints';
import { breakpointsOf } from '../../../src/engine/promptCache/requestLayout';
import { CONTEXT_MESSAGE_ID } from '../../../src/engine/model/frozenContext';
import { message, textBlock, type Message } from '../../../src/engine/types';

const site = (stableEnd = false, callerMarked = false) => ({ stableEnd, callerMarked });

describe('where cache breakpoints go', () => {
  it("marks the end of what stays put between rebases and the latest message, and nothing else of ctx's own", () => {
    assert.deepEqual(placeBreakpoints([site(), site(true), site(), site(), site()]), [false, true, false, false, true]);
    assert.deepEqual(placeBreakpoints([site(), site()]), [false, true], 'without a context message, the latest only');
    assert.deepEqual(placeBreakpoints([]), []);
  });

  it("keeps the caller's own where its messages are sent as sent, the latest first, never more than four in all", () => {
    const sites = [site(false, true), site(true), site(false, true), site(false, true), site(false, true), site()];
    const marked = placeBreakpoints(sites);
    assert.equal(marked.filter(Boolean).length, MAX_CACHE_BREAKPOINTS);
    assert.deepEqual(marked, [false, true, false, true, true, true], "ctx's two, then the caller's latest two");
  });

  it("finds ctx's context message by its id in a request", () => {
    const messages: Message[] = [
      message('system', 'system', [textBlock('You are an agent.')]),
      message(CONTEXT_MESSAGE_ID, 'user', [textBlock('# Context kept by ctx')]),
      message('u1', 'user', [textBlock('Go on.')]),
    ];
    assert.deepEqual(
      breakpointsOf(
        messages,
        (x) => x,
        () => false,
      ),
      [false, true, true],
    );
  });
});
