import * as assert from 'node:assert/strict';
import { importTranscript } from '../../../src/cli/import/importTranscript';
import type { ImportResult, TranscriptFormat } from '../../../src/cli/import/importTypes';
import { authoredText, toolCalls, type Message } from '../../../src/engine/types';
import { assertWellFormed } from './pairingInvariants';
import { allMessages, readManifest, readProbes, readTranscript, visibleTexts, type ManifestEntry } from './realTranscripts';
import { typedPrompts } from './typedPrompts';

/** The format each real file must be detected as, from its structure alone. */
const EXPECTED_FORMATS: Readonly<Record<string, TranscriptFormat>> = {
  'cc__spotter__fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl': 'claude-code',
  'cc__spotter__4d5611e5-241a-462a-8d15-5122611a9569.jsonl': 'claude-code',
  'cc__spotter__258c7280-ae70-4798-800f-63464d01a85d.jsonl': 'claude-code',
  'cc__spotter__4d5611e5-subagent-agent-a2898e3.jsonl': 'claude-code',
  'cc__vscode-copilot-chat__30530d66-37fb-4f3b-aa5f-d92b6a8afae2.jsonl': 'claude-code',
  'sweagent__marshmallow-1867__function_calling_replace_from_source.traj': 'swe-agent',
  'sweagent__ctf_web_i_got_id_demo.traj': 'swe-agent',
  'openhands__multi_swe_bench_ponyc_output.jsonl': 'openhands',
  'miniswe__gemini3pro__psf__requests-1142.traj.json': 'mini-swe-agent',
  'miniswe__gemini3pro__django__django-11138.traj.json': 'mini-swe-agent',
  'cline__sdk_session.messages.json': 'anthropic',
  'cc__codemie-code__624a4a58-b34c-462d-a70d-13421c8125a8.jsonl': 'claude-code',
  'cc__codemie-code__196820da-1026-4b6f-a513-a6aae42da1a6.jsonl': 'claude-code',
  'copilot__vscode-chat-logs__fix-deploy.json': 'copilot-chat',
  'copilot-chatreplay__vscode-chat-logs__remove-tests.chatreplay.json': 'copilot-chatreplay',
  'codex__codemie-code__rollout-2026-05-11T11-26-55-019e1625.jsonl': 'codex',
  'gemini__codemie-code__session-2026-01-16T11-01-file-ops-37b7abef.json': 'gemini-cli',
};

const calls = (messages: readonly Message[]) => messages.flatMap(toolCalls);
const bashBlockCount = (msg: Message) =>
  msg.blocks.reduce((n, b) => n + (b.type === 'text' ? (b.text.match(/```bash\s*\n/g) ?? []).length : 0), 0);

describe('importing the real transcripts', () => {
  const manifest = readManifest();
  const imported = new Map<string, ImportResult>();
  const importedFile = (file: string): ImportResult => {
    const cached = imported.get(file);
    if (cached !== undefined) return cached;
    const result = importTranscript(readTranscript(file));
    imported.set(file, result);
    return result;
  };

  it('covers every file of the manifest', () => {
    assert.deepEqual(manifest.map((entry) => entry.file).sort(), Object.keys(EXPECTED_FORMATS).sort());
  });

  for (const entry of readManifest()) {
    describe(entry.file, () => {
      it(`is detected as ${EXPECTED_FORMATS[entry.file]}`, () => {
        assert.equal(importedFile(entry.file).format, EXPECTED_FORMATS[entry.file]);
      });

      it('pairs every tool result with an earlier call of the same id, with unique ids throughout', () => {
        const result = importedFile(entry.file);
        assertWellFormed(result);
        assert.equal(result.stats.unpairedResults, 0);
        assert.equal(result.stats.toolResults + result.stats.unansweredCalls, result.stats.toolCalls);
      });

      it('has as many tool calls as the manifest counts, where the definitions agree', () => {
        assertToolCallCount(entry, importedFile(entry.file));
      });

      const typed = typedPrompts(EXPECTED_FORMATS[entry.file], readTranscript(entry.file));
      if (typed !== undefined) {
        it(`keeps each of the ${typed.length} prompts the user typed as the user's own words, not as injected context`, () => {
          const authored = allMessages(importedFile(entry.file))
            .filter((m) => m.role === 'user')
            .map(authoredText);
          assert.ok(typed.length > 0);
          assert.deepEqual(
            typed.filter((prompt) => !authored.some((text) => text.includes(prompt.trim()))),
            [],
          );
        });
      }
    });
  }

  it('merges the records of one Claude Code API reply into one assistant message', () => {
    for (const entry of manifest.filter((e) => e.assistant_api_messages !== undefined)) {
      const assistants = importedFile(entry.file).messages.filter((m) => m.role === 'assistant');
      assert.equal(assistants.length, entry.assistant_api_messages, entry.file);
    }
  });

  it('keeps every dev probe string in the imported messages of its file', () => {
    const missing = readProbes().filter(
      (probe) => !visibleTexts(allMessages(importedFile(probe.file))).some((text) => text.includes(probe.probe)),
    );
    assert.deepEqual(missing, []);
  });

  it('imports each OpenHands task as its own session, the first one as the messages', () => {
    const entry = manifest.find((e) => e.sessions !== undefined);
    assert.ok(entry?.sessions !== undefined);
    const result = importedFile(entry.file);
    assert.deepEqual(
      result.sessions.map((s) => s.id),
      entry.sessions.map((s) => s.instance_id),
    );
    assert.equal(result.messages, result.sessions[0].messages);
  });
});

function assertToolCallCount(entry: ManifestEntry, result: ImportResult): void {
  const found = calls(allMessages(result));
  assert.equal(result.stats.toolCalls, found.length);
  if (result.format === 'openhands') {
    // The manifest leaves `finish` out of its count; here it is the call the agent made to end the task (it gets no result).
    const finishes = found.filter((c) => c.name === 'finish').length;
    assert.equal(found.length - finishes, entry.tool_calls);
    entry.sessions?.forEach((session, index) => {
      assert.equal(
        calls(result.sessions[index].messages).filter((c) => c.name !== 'finish').length,
        session.tool_calls,
        session.instance_id,
      );
    });
    return;
  }
  if (result.format === 'mini-swe-agent') {
    // The manifest counts every turn with a ```bash block; mini-swe-agent ran only turns with exactly one
    // and answered the others with a format error, so those stay text (their blocks unrun) here.
    const rejected = result.messages.filter((m) => m.role === 'assistant' && toolCalls(m).length === 0 && bashBlockCount(m) >= 2).length;
    assert.ok(rejected > 0);
    assert.equal(found.length + rejected, entry.tool_calls);
    return;
  }
  assert.equal(found.length, entry.tool_calls);
}
