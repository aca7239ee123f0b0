import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { NEVER_CANCELLED } from '../../../src/engine/cancellation';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import { DeterministicSummarizer } from '../../../src/engine/summary/deterministicSummarizer';
import { sectionHeading, SUMMARY_SECTIONS } from '../../../src/engine/summary/summaryFormat';
import type { SummaryRequest } from '../../../src/engine/summary/summarizer';
import { TokenCounter } from '../../../src/engine/tokens/counter';
import { LocalTokenizer } from '../../../src/engine/tokens/localTokenizer';
import { messageText, toolResults, type Message } from '../../../src/engine/types';
import { REPOSITORY_ROOT, TRANSCRIPTS_FOLDER } from '../support/repository';
import { guide, recordTools, REFERENCES } from './summaryFakes';

/** The largest transcript file of the manifest. */
function largestTranscript(folder: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as { file: string }[];
  return manifest
    .map((entry) => entry.file)
    .sort((a, b) => fs.statSync(path.join(folder, b)).size - fs.statSync(path.join(folder, a)).size)[0];
}

describe('deterministic summary of the largest real transcript', function () {
  const root = REPOSITORY_ROOT;
  const folder = TRANSCRIPTS_FOLDER;
  const file = largestTranscript(folder);
  const tokenizer = new LocalTokenizer('o200k_base', (encoding) =>
    createRequire(path.join(root, 'package.json'))(`js-tiktoken/ranks/${encoding}`),
  );
  const counter = new TokenCounter(tokenizer);
  const countText = (text: string) => counter.countText(text);
  const summarizer = new DeterministicSummarizer({ countText, recordTools });
  let messages: Message[] = [];

  before(async function () {
    this.timeout(60_000);
    await tokenizer.whenReady();
    messages = importTranscript(fs.readFileSync(path.join(folder, file), 'utf8')).messages;
  });

  it(`summarizes all of ${file} within its target, with every heading`, async () => {
    const intent = messageText(messages.find((m) => m.role === 'user') ?? messages[0]);
    const request: SummaryRequest = { kind: 'history', messages, guide: guide(intent), targetTokens: 1200, references: REFERENCES };
    const summary = await summarizer.summarize(request, NEVER_CANCELLED);
    assert.ok((await countText(summary)) <= 1200);
    for (const section of SUMMARY_SECTIONS) assert.ok(summary.includes(`\n${sectionHeading(section)}\n`), section);
  });

  it('compresses its largest tool result to a tenth, keeping the note first', async () => {
    const results = messages.flatMap((m) => toolResults(m).map((block) => ({ m, block })));
    const largest = results.sort((a, b) => b.block.content.length - a.block.content.length)[0];
    const callMessage = messages.find((m) => m.blocks.some((b) => b.type === 'toolCall' && b.id === largest.block.callId));
    assert.ok(callMessage);
    const original = await countText(largest.block.content);
    const target = Math.ceil(original / 10);
    const request: SummaryRequest = {
      kind: 'toolResult',
      messages: [callMessage, largest.m],
      guide: guide('x'),
      targetTokens: target,
      references: REFERENCES,
    };
    const compressed = await summarizer.summarize(request, NEVER_CANCELLED);
    assert.ok((await countText(compressed)) <= target);
    assert.match(
      compressed,
      /^\[ctx compressed this \S+ result from \d+ to about \d+ tokens; the full result is in the archive — search it with ctx_recover\]\n/,
    );
  });
});
