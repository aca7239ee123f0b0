import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MalformedTranscriptError, TranscriptFormatError } from '../../../src/cli/import/importErrors';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { renderContext } from '../../../src/cli/replay/renderContext';
import { replayTranscript } from '../../../src/cli/replay/replayTranscript';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { TokenCounter } from '../../../src/engine/tokens/counter';
import { buildCli, runBuiltCli, TemporaryFolders } from '../cli/builtCli';
import { CharTokenizer } from '../support/fakes';
import { seededRandom } from '../tokens/seededRandom';
import { FUZZ_KINDS, type FuzzKind } from './fuzzTranscripts';

/** Cases per kind in process; a few of each go through the built command line too. */
const CASES_PER_KIND = 60;
const CLI_CASES_PER_KIND = 2;
const figures = { inProcess: 0, replayed: 0, cli: 0 };
after(() =>
  console.log(
    `      figures: ${figures.inProcess + figures.cli} fuzz cases run ` +
      `(${figures.inProcess} in process, ${figures.replayed} of them replayed; ${figures.cli} through dist/cli.js)`,
  ),
);

describe('fuzz: hostile transcripts', function () {
  this.timeout(300_000);
  const kinds = Object.keys(FUZZ_KINDS) as FuzzKind[];

  for (const [k, kind] of kinds.entries()) {
    it(`imports ${CASES_PER_KIND} ${kind} transcripts strictly: each is read and replayed, or refused with a typed error`, async () => {
      const random = seededRandom(5_000 + k);
      for (let i = 0; i < CASES_PER_KIND; i++) {
        const text = FUZZ_KINDS[kind](random);
        let imported;
        try {
          imported = importTranscript(text, { onMalformed: 'stop', keepNativeCompaction: false });
        } catch (e) {
          assert.ok(
            e instanceof TranscriptFormatError || e instanceof MalformedTranscriptError,
            `${kind} #${i}: ${e instanceof Error ? e.stack : String(e)}`,
          );
          figures.inProcess++;
          continue;
        }
        const messages = imported.sessions[0]?.messages ?? [];
        if (messages.length > 0) {
          const { final, session } = await replayTranscript(
            { format: imported.format, messages },
            {
              maxInputTokens: 1_000 + Math.floor(random() * 20_000),
              store: new MemoryStore(),
              counter: new TokenCounter(new CharTokenizer()),
              startAt: Date.UTC(2026, 0, 1),
            },
          );
          renderContext(final?.messages ?? []);
          session.dispose();
          figures.replayed++;
        }
        figures.inProcess++;
      }
    });
  }

  it('exits 0 or 1 with one line, never 2 or a stack, when the built command line is fed them', () => {
    buildCli();
    const temporary = new TemporaryFolders();
    const folder = temporary.make('fuzz');
    try {
      for (const [k, kind] of kinds.entries()) {
        const random = seededRandom(9_000 + k);
        for (let i = 0; i < CLI_CASES_PER_KIND; i++) {
          const file = path.join(folder, `${k}-${i}.txt`);
          fs.writeFileSync(file, FUZZ_KINDS[kind](random));
          const run = runBuiltCli(['replay', file, '--budget', '6000', '--out', path.join(folder, `out-${k}-${i}`)]);
          assert.ok(run.status === 0 || run.status === 1, `${kind} #${i}: exit ${run.status}: ${run.stderr}`);
          if (run.status === 1) assert.match(run.stderr, /^ctx: [^\n]+\n$/, `${kind} #${i}: one line`);
          assert.doesNotMatch(run.stderr, /internal error|\n\s+at /, `${kind} #${i}`);
          figures.cli++;
        }
      }
    } finally {
      temporary.removeAll();
    }
  });
});
