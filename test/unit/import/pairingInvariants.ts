/**
 * Checks every import must pass, whatever the format: results answer earlier calls by id, tool
 * messages hold only results, and ids are unique.
 */
import * as assert from 'node:assert/strict';
import type { ImportResult } from '../../../src/cli/import/importTypes';

export function assertWellFormed(result: ImportResult): void {
  const messageIds = new Set<string>();
  for (const session of result.sessions) {
    const calls = new Map<string, string>();
    for (const msg of session.messages) {
      assert.ok(!messageIds.has(msg.id), `message id ${msg.id} is unique`);
      messageIds.add(msg.id);
      assert.ok(msg.blocks.length > 0, `message ${msg.id} has blocks`);
      if (msg.role === 'tool') {
        for (const block of msg.blocks) {
          assert.equal(block.type, 'toolResult', `tool message ${msg.id} holds only results`);
          if (block.type !== 'toolResult') continue;
          assert.ok(calls.has(block.callId), `result in ${msg.id} answers an earlier call ${block.callId}`);
          assert.equal(block.toolName, calls.get(block.callId), `result in ${msg.id} names its call's tool`);
        }
        continue;
      }
      for (const block of msg.blocks) {
        assert.notEqual(block.type, 'toolResult', `${msg.role} message ${msg.id} holds no result`);
        if (block.type !== 'toolCall') continue;
        assert.ok(!calls.has(block.id), `tool call id ${block.id} is unique`);
        calls.set(block.id, block.name);
      }
    }
  }
  assert.equal(result.messages, result.sessions[0].messages);
}
