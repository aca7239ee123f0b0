import * as assert from 'node:assert/strict';
import { importTranscript } from '../../src/cli/import/importTranscript';
import { DEFAULT_OPTIONS } from '../../src/engine/options';
import { filesWrittenBy } from '../../src/cli/replay/transcriptWorkspace';
import { ContextSession } from '../../src/engine/session/contextSession';
import { MemoryStore } from '../../src/engine/storage/memoryStore';
import type { OffloadRecord } from '../../src/engine/model/offloadRecord';
import { ATTACHED_CONTEXT } from '../../src/engine/tiers/offloadAttachments';
import type { Message } from '../../src/engine/types';
import { TokenCounter } from '../../src/engine/tokens/counter';
import { LocalTokenizer } from '../../src/engine/tokens/localTokenizer';
import { readProbes, readTranscript, visibleTexts } from './import/realTranscripts';
import { FakeClock, RecordingLogger } from './support/fakes';

describe('replay of real transcripts through tiers 1 and 2', function () {
  this.timeout(120_000);
  const tokenizer = new LocalTokenizer('o200k_base');
  const cases = [
    { file: 'cc__vscode-copilot-chat__30530d66-37fb-4f3b-aa5f-d92b6a8afae2.jsonl', offloadThresholdTokens: 15_000, budget: 16_000 },
    { file: 'cline__sdk_session.messages.json', offloadThresholdTokens: 2_000, budget: 8_000 },
    { file: 'sweagent__marshmallow-1867__function_calling_replace_from_source.traj', offloadThresholdTokens: 1_000, budget: 4_000 },
    { file: 'cc__spotter__4d5611e5-subagent-agent-a2898e3.jsonl', offloadThresholdTokens: 5_000, budget: 20_000 },
  ];

  for (const c of cases) {
    it(`keeps every message of ${c.file} in the archive while the tiers shrink the context`, async () => {
      const imported = importTranscript(readTranscript(c.file)).messages;
      const store = new MemoryStore();
      const counter = new TokenCounter(tokenizer);
      await tokenizer.whenReady();
      const session = ContextSession.create(
        {
          ...DEFAULT_OPTIONS,
          offloadThresholdTokens: c.offloadThresholdTokens,
          checkpointTools: ['Task', 'read_files', 'str_replace_editor'],
        },
        { store, counter, files: filesWrittenBy(imported), logger: new RecordingLogger(), clock: new FakeClock() },
      );
      let peak = 0;
      for (const m of imported) {
        await session.add([m]);
        if (m.role === 'user') session.requestCheckpoint('str_replace_editor');
        peak = Math.max(peak, (await session.prepare(c.budget)).tokens);
      }
      const archived = await session.readArchive();
      assert.deepEqual(archived, imported, 'the archive holds every message exactly as it arrived');
      assert.ok(session.archiveComplete);

      for (const record of session.offloads) {
        assert.equal(
          await store.read(record.file),
          offloadedOriginal(imported, record),
          'an offloaded file holds the full result or attachment',
        );
      }

      const full = (await counter.measure(imported)).total;
      const final = (await counter.measure(session.messages)).total;
      assert.ok(final <= full, `final ${final} ≤ full ${full}`);
      assert.ok(session.state.history.length > 0, 'some tier acted');
      const archiveText = visibleTexts(archived).join('\n');
      for (const p of readProbes().filter((p) => p.file === c.file)) {
        assert.ok(archiveText.includes(p.probe), `probe kept in archive: ${p.probe}`);
      }
      // Every call in the active context still has its result, and no result lost its call.
      const calls = new Set(session.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === 'toolCall' ? [b.id] : []))));
      const results = session.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === 'toolResult' ? [b.callId] : [])));
      for (const id of results) assert.ok(calls.has(id), `result ${id} has its call`);
    });
  }
});

/** What an offload record's file must hold: the tool result, or the attached block of a message, as it arrived. */
function offloadedOriginal(imported: readonly Message[], record: OffloadRecord): string | undefined {
  if (record.toolName === ATTACHED_CONTEXT) {
    const [messageId, blockIndex] = record.callId.split('#attached-');
    const block = imported.find((m) => m.id === messageId)?.blocks[Number(blockIndex)];
    return block?.type === 'text' && block.injected === true ? block.text : undefined;
  }
  const original = imported.flatMap((m) => m.blocks).find((b) => b.type === 'toolResult' && b.callId === record.callId);
  return original?.type === 'toolResult' ? original.content : undefined;
}
