import * as assert from 'node:assert/strict';
import { sessionTitle } from '../../../src/engine/session/sessionTitle';
import { userTextBlocks } from '../../../src/engine/text/injectedTags';
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

  it("is the user's request when Copilot's agent sends its environment and memory as a message of their own first", () => {
    const environment = message(
      'u1',
      'user',
      userTextBlocks(
        "<environment_info>\nThe user's current OS is: Linux\n</environment_info>\n<userMemory>\nNo user preferences or notes saved yet.\n</userMemory>\n" +
          '<sessionMemory>\nNo session notes yet.\n</sessionMemory>\n<repoMemory>\nNo repository-scoped notes have been created yet.\n</repoMemory>\n',
      ),
    );
    const request = message(
      'u2',
      'user',
      userTextBlocks(
        '<context>\nThe current date is 2026-11-27.\n</context>\n<userRequest>\nRead every part of the build log.\n</userRequest>\n',
      ),
    );
    assert.equal(sessionTitle([environment, request, assistant('Reading part 1.')]), 'Read every part of the build log.');
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
