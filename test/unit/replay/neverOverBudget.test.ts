/**
 * No request over its budget, whatever the budget: every session of the corpus replayed at a quarter of its input
 * (the answer reserve beside it), and the largest request any of them would have sent held to the budget, or, where
 * what must be sent as it is (the instructions, the round in progress) is larger than that, the user told so in one line.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { replayTranscript } from '../../../src/cli/replay/replayTranscript';
import { DEFAULT_ANSWER_RESERVE_TOKENS } from '../../../src/engine/budget';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { TokenCounter } from '../../../src/engine/tokens/counter';
import { CharTokenizer } from '../support/fakes';
import { TRANSCRIPT_SETS_FOLDER } from '../support/repository';

/** Every split of the corpus with a manifest, and its session files. */
function corpus(): { split: string; folder: string; files: string[] }[] {
  return fs
    .readdirSync(TRANSCRIPT_SETS_FOLDER)
    .map((split) => ({ split, folder: path.join(TRANSCRIPT_SETS_FOLDER, split) }))
    .filter(({ folder }) => fs.existsSync(path.join(folder, 'manifest.json')))
    .map(({ split, folder }) => ({
      split,
      folder,
      files: (JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as { file: string }[]).map((e) => e.file),
    }));
}

describe('no request over its budget, at a quarter of every corpus session, or the user told why', function () {
  this.timeout(900_000);

  it('replays every session at a quarter of its input: every request fits, or the user is told why it cannot', async () => {
    const counter = new TokenCounter(new CharTokenizer());
    const over: string[] = [];
    const untold: string[] = [];
    let replayed = 0;
    for (const { split, folder, files } of corpus()) {
      for (const file of files) {
        let imported: ReturnType<typeof importTranscript>;
        try {
          imported = importTranscript(fs.readFileSync(path.join(folder, file), 'utf8'), { keepNativeCompaction: false });
        } catch {
          continue; // a session the importers cannot read yet: its own tests say so
        }
        if (imported.messages.length === 0) continue;
        const input = (await counter.measure(imported.messages)).total;
        const { figures, session } = await replayTranscript(imported, {
          maxInputTokens: Math.ceil(input / 4) + DEFAULT_ANSWER_RESERVE_TOKENS,
          store: new MemoryStore(),
          counter,
          stopwatch: { now: () => 0 },
        });
        const told = session.warnings.some((w) => /more than the budget of [\d,]+, after every compression: /.test(w.message));
        session.dispose();
        replayed++;
        if (figures.peakTokens <= figures.budget) continue;
        over.push(`${split}/${file}: ${figures.peakTokens} of ${figures.budget}`);
        if (!told) untold.push(`${split}/${file}: ${figures.peakTokens} of ${figures.budget}`);
      }
    }
    assert.ok(replayed >= 100, `${replayed} sessions replayed`);
    assert.deepEqual(untold, [], `requests over their budget, and the user not told why:\n${untold.join('\n')}`);
    // Most sessions fit whole: those that cannot are the few whose instructions or last round outgrow a quarter.
    assert.ok(over.length <= replayed / 10, `${over.length} of ${replayed} replays over their budget:\n${over.join('\n')}`);
  });
});
