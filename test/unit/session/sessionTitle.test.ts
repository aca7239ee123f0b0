import * as assert from 'node:assert/strict';
import { sessionTitle } from '../../../src/engine/session/sessionTitle';
import { injectedTextBlock, message, textBlock } from '../../../src/engine/types';
import { assistant, user } from '../support/builders';

describe('a session title', () => {
  it("is the user's own first request, never the environment or files injected before it", () => {
    const first = message('u1', 'user', [
      injectedTextBlock('<environment_info>\nThe user is on Linux. Workspace: /repo\n</environment_info>'),
      textBlock('Fix the flaky upload test'),
    ]);
    assert.equal(sessionTitle([first, assistant('On it.')]), 'Fix the flaky upload test');
  });

  it('skips a user message that holds only injected context', () => {
    const attached = message('u1', 'user', [injectedTextBlock('<attachment>README.md …</attachment>')]);
    assert.equal(sessionTitle([attached, user('Summarize the readme')]), 'Summarize the readme');
  });

  it('falls back to the first user message when nobody wrote anything of their own', () => {
    const attached = message('u1', 'user', [injectedTextBlock('Task: reproduce the crash')]);
    assert.equal(sessionTitle([attached]), 'Task: reproduce the crash');
    assert.equal(sessionTitle([assistant('Hello')]), '');
  });
});
