import * as assert from 'node:assert/strict';
import { artifactsSection } from '../../../src/engine/summary/recordSections';
import { recordToolActivity } from '../../../src/engine/ledger/toolRecord';
import type { Fact } from '../../../src/engine/model/fact';

const artifact = (key: string, text: string, score = 0.35): Fact => ({ kind: 'artifact', key, text, messageId: 'm1', score });

describe("a checkpoint's artifacts that no tool touched", () => {
  it('lists names by themselves, and gives an artifact said in words its own line with the file it is of', () => {
    const section = artifactsSection(
      recordToolActivity([]),
      [],
      [
        artifact('parseHookInput', 'parseHookInput'),
        artifact(
          '// Package logging provides structured logging for the CLI.',
          'logger.go: // Package logging provides structured logging for the CLI.',
        ),
      ],
    );
    const lines = section.groups.flatMap((g) => g.lines.map((l) => l.text));
    assert.ok(lines.includes('- Named: parseHookInput'), lines.join('\n'));
    assert.ok(
      lines.some((l) => l.includes('logger.go: // Package logging provides structured logging for the CLI.')),
      lines.join('\n'),
    );
    assert.ok(!lines.some((l) => l.startsWith('- Named:') && l.includes('//')), 'a comment is not listed as a name');
  });
});
