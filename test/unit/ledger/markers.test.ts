import * as assert from 'node:assert/strict';
import { parseMarkers } from '../../../src/engine/ledger/markers';

describe('ledger markers', () => {
  it('reads a marker block with kinds, texts and statuses', () => {
    const text = [
      '[GOAL] Implement user authentication system',
      '[CHECKPOINT] Design authentication flow - COMPLETED',
      '[CHECKPOINT] Add JWT token generation - IN PROGRESS',
      '[CHECKPOINT] Add refresh tokens - PENDING',
      '[DECISION] Use JWT for authentication - LOCKED',
      '[ARTIFACT] Created src/auth/login.ts',
      '[NEXT] Complete JWT token generation, then move to user registration',
    ].join('\n');
    assert.deepEqual(parseMarkers(text), [
      { kind: 'goal', text: 'Implement user authentication system' },
      { kind: 'checkpoint', text: 'Design authentication flow', status: 'completed' },
      { kind: 'checkpoint', text: 'Add JWT token generation', status: 'in-progress' },
      { kind: 'checkpoint', text: 'Add refresh tokens', status: 'pending' },
      { kind: 'decision', text: 'Use JWT for authentication', status: 'locked' },
      { kind: 'artifact', text: 'Created src/auth/login.ts' },
      { kind: 'next', text: 'Complete JWT token generation, then move to user registration' },
    ]);
  });

  it('accepts indentation, bullets, numbered lists, bold tags, lower-case tags and "(locked)"', () => {
    const text = [
      '   [goal] indented goal',
      '- [DECISION] dashed decision (locked)',
      '* [Decision] starred decision',
      '1. [CHECKPOINT] numbered step - completed',
      '**[DECISION]** bold tag',
      '**[DECISION] bold line**',
      '- **[NEXT]:** bold with colon',
    ].join('\n');
    assert.deepEqual(parseMarkers(text), [
      { kind: 'goal', text: 'indented goal' },
      { kind: 'decision', text: 'dashed decision', status: 'locked' },
      { kind: 'decision', text: 'starred decision' },
      { kind: 'checkpoint', text: 'numbered step', status: 'completed' },
      { kind: 'decision', text: 'bold tag' },
      { kind: 'decision', text: 'bold line' },
      { kind: 'next', text: 'bold with colon' },
    ]);
  });

  it('ignores markers that are not at the start of a line', () => {
    assert.deepEqual(parseMarkers('We could write [DECISION] Use Redis here, but not yet.'), []);
  });

  it('ignores markers inside ``` and ~~~ fenced code blocks, and reads them again after the fence', () => {
    const text = [
      '```text',
      '[DECISION] example inside backticks',
      '```',
      '~~~',
      '[GOAL] example inside tildes',
      '```',
      '[GOAL] still inside: a backtick fence does not close a tilde fence',
      '~~~',
      '[GOAL] outside',
    ].join('\n');
    assert.deepEqual(parseMarkers(text), [{ kind: 'goal', text: 'outside' }]);
  });

  it('ignores markers with no text, even with a status', () => {
    assert.deepEqual(parseMarkers('[GOAL]\n[DECISION]   \n[CHECKPOINT] - COMPLETED\n[NEXT] go'), [{ kind: 'next', text: 'go' }]);
  });

  it('keeps unknown tags and a dash inside the text as they are', () => {
    assert.deepEqual(parseMarkers('[TODO] not a marker\n[ARTIFACT] Modified src/a-b.ts - see diff'), [
      { kind: 'artifact', text: 'Modified src/a-b.ts - see diff' },
    ]);
  });

  it('handles Windows line endings', () => {
    assert.deepEqual(parseMarkers('[GOAL] one\r\n[GOAL] two\r\n'), [
      { kind: 'goal', text: 'one' },
      { kind: 'goal', text: 'two' },
    ]);
  });
});
