import * as assert from 'node:assert/strict';
import { authoredText } from '../../../src/engine/types';
import { assistantRecord, jsonl, text, toolResult, toolUse, userRecord } from './claudeCodeRecords';
import { ledgerAfter, markedTexts, OWN_GOAL, PLANTED } from './provenanceSupport';

const OWN = ['goal: keep the public API stable'];

describe('provenance: markers count only in what the user or the assistant wrote', () => {
  it('ignores markers in a tool result that answers no call, and keeps the result as injected user text', async () => {
    const { ledger, imported } = await ledgerAfter(
      JSON.stringify({
        messages: [
          { role: 'user', content: `go\n${OWN_GOAL}` },
          { role: 'tool', tool_call_id: 'zzz', content: PLANTED },
          { role: 'assistant', content: 'ok' },
        ],
      }),
    );
    assert.deepEqual(markedTexts(ledger), OWN);
    assert.equal(imported.stats.unpairedResults, 1);
    assert.equal(imported.stats.injectedBlocks, 1);
    assert.deepEqual(
      ledger.userMessages.map((m) => m.text),
      [`go\n${OWN_GOAL}`],
    );
  });

  it('ignores markers in an OpenAI function message that answers no call', async () => {
    const { ledger } = await ledgerAfter(
      JSON.stringify([
        { role: 'user', content: OWN_GOAL },
        { role: 'function', name: 'fetch_page', content: PLANTED },
        { role: 'assistant', content: 'done' },
      ]),
    );
    assert.deepEqual(markedTexts(ledger), OWN);
  });

  it('ignores markers in a message of a role nobody knows', async () => {
    const { ledger, imported } = await ledgerAfter(
      JSON.stringify({
        messages: [
          { role: 'user', content: OWN_GOAL },
          { role: 'environment', content: PLANTED },
        ],
      }),
    );
    assert.deepEqual(markedTexts(ledger), OWN);
    assert.match(imported.warnings[0].reason, /unknown role 'environment' kept as injected user text/);
  });

  it('ignores markers in a file Cline inlined into the user turn, and keeps the user words as the intent', async () => {
    const { ledger, imported } = await ledgerAfter(
      JSON.stringify({
        version: 1,
        sessionId: 's',
        system_prompt: 'You are Cline.',
        messages: [
          {
            id: 'm1',
            role: 'user',
            content: [
              { type: 'text', text: `update @notes.md\n${OWN_GOAL}` },
              { type: 'file', path: '/repo/notes.md', content: PLANTED },
            ],
          },
          { id: 'm2', role: 'assistant', content: [{ type: 'text', text: 'Reading.' }] },
        ],
      }),
    );
    assert.deepEqual(markedTexts(ledger), OWN);
    assert.equal(ledger.intent?.text, `update @notes.md\n${OWN_GOAL}`);
    assert.equal(authoredText(imported.messages[1]), `update @notes.md\n${OWN_GOAL}`);
  });

  it('ignores markers in an Anthropic document block', async () => {
    const { ledger } = await ledgerAfter(
      JSON.stringify({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: OWN_GOAL },
              { type: 'document', title: 'runbook', source: { type: 'text', media_type: 'text/plain', data: PLANTED } },
              { type: 'tool_result', tool_use_id: 'nothing', content: 'x' },
            ],
          },
        ],
      }),
    );
    assert.deepEqual(markedTexts(ledger), OWN);
  });

  it('ignores markers in OpenHands recalled repository instructions and microagents', async () => {
    const { ledger } = await ledgerAfter(
      JSON.stringify({
        instance_id: 't1',
        history: [
          { id: 1, source: 'user', action: 'message', args: { content: OWN_GOAL } },
          { id: 2, source: 'user', action: 'recall', args: { query: OWN_GOAL } },
          {
            id: 3,
            source: 'environment',
            observation: 'recall',
            cause: 2,
            content: 'Added workspace context',
            extras: { repo_instructions: PLANTED, microagent_knowledge: [{ name: 'deploy', trigger: 'deploy', content: PLANTED }] },
          },
        ],
      }),
    );
    assert.deepEqual(markedTexts(ledger), OWN);
  });

  it('ignores markers in an OpenHands observation that answers no action', async () => {
    const { ledger } = await ledgerAfter(
      JSON.stringify({
        instance_id: 't1',
        history: [
          { id: 1, source: 'user', action: 'message', args: { content: OWN_GOAL } },
          { id: 2, source: 'agent', observation: 'error', cause: 99, content: PLANTED, extras: {} },
        ],
      }),
    );
    assert.deepEqual(markedTexts(ledger), OWN);
  });

  it('ignores markers in an OpenHands message from the environment', async () => {
    const { ledger, imported } = await ledgerAfter(
      JSON.stringify({
        instance_id: 't1',
        history: [
          { id: 1, source: 'user', action: 'message', args: { content: OWN_GOAL } },
          { id: 3, source: 'environment', action: 'message', args: { content: PLANTED } },
        ],
      }),
    );
    assert.deepEqual(markedTexts(ledger), OWN);
    assert.equal(imported.messages[1].role, 'user');
  });

  it('ignores markers in a Claude Code isMeta record, which is not the user message it looks like', async () => {
    const { ledger } = await ledgerAfter(
      jsonl([
        userRecord('u1', OWN_GOAL),
        userRecord('u2', [text(`Skill instructions\n${PLANTED}`)], { isMeta: true }),
        assistantRecord('a1', 'msg_1', text('Following the skill.')),
      ]),
    );
    assert.deepEqual(markedTexts(ledger), OWN);
    assert.deepEqual(
      ledger.userMessages.map((m) => m.messageId),
      ['u1'],
    );
  });

  it('ignores markers inside a <system-reminder> of a Claude Code user turn, and keeps the words around it', async () => {
    const { ledger } = await ledgerAfter(
      jsonl([
        userRecord('u1', `please continue\n<system-reminder>\n${PLANTED}\n</system-reminder>\n${OWN_GOAL}`),
        assistantRecord('a1', 'msg_1', toolUse('t1', 'Read', { file_path: '/a' })),
        userRecord('u2', [toolResult('t1', `<system-reminder>${PLANTED}</system-reminder>`)]),
      ]),
    );
    assert.deepEqual(markedTexts(ledger), OWN);
    assert.equal(ledger.userMessages[0].text, `please continue\n${OWN_GOAL}`);
  });

  it('ignores markers in Claude Code’s own compaction summary, which does not become the intent', async () => {
    const { ledger } = await ledgerAfter(
      jsonl([
        userRecord('u0', [text(`This session is being continued from a previous conversation.\n${PLANTED}`)], { isCompactSummary: true }),
        userRecord('u1', OWN_GOAL),
      ]),
    );
    assert.deepEqual(markedTexts(ledger), OWN);
    assert.equal(ledger.intent?.messageId, 'u1');
  });

  it('ignores markers in a SWE-agent observation that follows an empty action', async () => {
    const { ledger } = await ledgerAfter(
      JSON.stringify({
        history: [
          { role: 'system', content: 'SETTING' },
          { role: 'user', content: `Fix the issue\n${OWN_GOAL}` },
          { role: 'assistant', content: 'I am thinking.', action: '' },
          { role: 'user', content: `Your output was not formatted correctly.\n${PLANTED}` },
        ],
        info: {},
      }),
    );
    assert.deepEqual(markedTexts(ledger), OWN);
    assert.equal(ledger.userMessages.length, 1);
  });

  it('ignores markers in a mini-swe-agent format error', async () => {
    const { ledger } = await ledgerAfter(
      JSON.stringify({
        trajectory_format: 'mini-swe-agent-1',
        messages: [
          { role: 'system', content: 'You are a helpful assistant.' },
          { role: 'user', content: `<pr_description>Fix it</pr_description>\n${OWN_GOAL}` },
          { role: 'assistant', content: 'THOUGHT: two.\n\n```bash\nls\n```\n\n```bash\npwd\n```' },
          { role: 'user', content: `Please always provide EXACTLY ONE action.\n${PLANTED}` },
        ],
      }),
    );
    assert.deepEqual(markedTexts(ledger), OWN);
    assert.equal(ledger.userMessages.length, 1);
  });
});
