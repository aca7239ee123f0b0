/**
 * The corpus sessions of the agents added last (OpenCode, the Copilot CLI, Pi, Aider), in the
 * tuning and the validation splits: each is read by the format its structure says, whole, with its
 * calls paired and the user's typed words kept as theirs. Only importing: no replay, no probe.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import type { TranscriptFormat } from '../../../src/cli/import/importTypes';
import { authoredText, toolCalls } from '../../../src/engine/types';
import { TRANSCRIPT_SETS_FOLDER } from '../support/repository';
import { assertWellFormed } from './pairingInvariants';
import { allMessages } from './realTranscripts';
import { typedPrompts } from './typedPrompts';

const FORMATS: readonly TranscriptFormat[] = ['opencode', 'copilot-cli', 'pi', 'aider'];

interface Entry {
  readonly file: string;
  readonly format: TranscriptFormat;
  readonly messages: number;
  readonly tool_calls: number;
}

const entries = ['set3', 'validation'].flatMap((split) =>
  (JSON.parse(fs.readFileSync(path.join(TRANSCRIPT_SETS_FOLDER, split, 'manifest.json'), 'utf8')) as Entry[])
    .filter((entry) => FORMATS.includes(entry.format))
    .map((entry) => ({ ...entry, file: path.join(TRANSCRIPT_SETS_FOLDER, split, entry.file) })),
);

describe('the corpus sessions of OpenCode, the Copilot CLI, Pi and Aider', () => {
  it('hold sessions of each of these agents', () => {
    assert.deepEqual([...new Set(entries.map((e) => e.format))].sort(), [...FORMATS].sort());
  });

  for (const entry of entries) {
    describe(path.basename(entry.file), () => {
      const text = fs.readFileSync(entry.file, 'utf8');
      const imported = importTranscript(text, { keepNativeCompaction: false });

      it(`is detected as ${entry.format} and imports as many messages and calls as its manifest says`, () => {
        assert.equal(imported.format, entry.format);
        assert.equal(imported.messages.length, entry.messages);
        assert.equal(imported.stats.toolCalls, entry.tool_calls);
        assert.equal(allMessages(imported).flatMap(toolCalls).length, entry.tool_calls);
      });

      it('pairs every result with an earlier call, with unique ids, and warns about nothing', () => {
        assertWellFormed(imported);
        assert.equal(imported.stats.unpairedResults, 0);
        assert.equal(imported.stats.toolResults + imported.stats.unansweredCalls, imported.stats.toolCalls);
        assert.deepEqual(imported.warnings, []);
      });

      const typed = typedPrompts(entry.format, text);
      if (typed !== undefined) {
        it(`keeps each of the ${typed.length} prompts the user typed as the user's own words`, () => {
          const authored = allMessages(imported)
            .filter((m) => m.role === 'user')
            .map(authoredText);
          assert.ok(typed.length > 0);
          assert.deepEqual(
            typed.filter((prompt) => !authored.some((words) => words.includes(prompt.trim()))),
            [],
          );
        });
      }
    });
  }
});
