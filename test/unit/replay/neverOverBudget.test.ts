/**
 * No request over its budget, whatever the budget: every session of the corpus replayed at a quarter of its input
 * (the answer reserve beside it), and the largest request any of them would have sent held to the budget.
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

describe('no request over its budget, at a quarter of every corpus session', function () {
  this.timeout(900_000);

  it('replays every session at a quarter of its input, and no request it would send is larger than the budget', async () => {
    const counter = new TokenCounter(new CharTokenizer());
    const over: string[] = [];
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
        session.dispose();
        replayed++;
        if (figures.peakTokens > figures.budget) over.push(`${split}/${file}: ${figures.peakTokens} of ${figures.budget}`);
      }
    }
    assert.ok(replayed >= 100, `${replayed} sessions replayed`);
    assert.deepEqual(over, [], `requests over their budget:\n${over.join('\n')}`);
  });
});
