import * as assert from 'node:assert/strict';
import { callSubject } from '../../../src/engine/ledger/callSubject';
import { messageText, type Message, type ToolCallBlock } from '../../../src/engine/types';
import { assistant, call, result, user } from '../support/builders';
import { replayAtShareOfInput } from '../support/replayShare';

const callBlock = (name: string, input: Record<string, unknown>): ToolCallBlock => {
  const block = call('x', name, input).blocks[0];
  assert.equal(block.type, 'toolCall');
  return block;
};

describe('what a tool call was about', () => {
  it('names the commands a call ran and the files it touched', () => {
    assert.equal(callSubject(callBlock('bash', { command: 'cargo test -p billing' })), 'cargo test -p billing');
    assert.equal(callSubject(callBlock('read_file', { path: 'src/billing/rates.rs' })), 'src/billing/rates.rs');
  });

  it('names what a search looked for and where, not only where it looked', () => {
    assert.equal(
      callSubject(callBlock('Glob', { path: '/home/dev/shop/proto', pattern: '**/*.proto' })),
      'Glob **/*.proto in /home/dev/shop/proto',
    );
    assert.equal(callSubject(callBlock('Grep', { pattern: 'retry_after', path: 'lib' })), 'Grep retry_after in lib');
    assert.equal(callSubject(callBlock('web_search', { query: 'sqlite busy timeout default' })), 'web_search sqlite busy timeout default');
    // Content of several lines is what a call carries, not what it asked for.
    assert.equal(
      callSubject(callBlock('web_fetch', { prompt: 'Sum it up\nbriefly', url: 'https://example.org/notes' })),
      'web_fetch https://example.org/notes',
    );
    assert.equal(callSubject(callBlock('todo_write', { todos: [{ content: 'x' }] })), undefined);
  });
});

describe('an offloaded result in the ledger', () => {
  it('says what its call was about, so the model can tell which file to read back', async () => {
    const hits = Array.from({ length: 900 }, (_, i) => `/home/dev/shop/services/svc${i}/api/v${i % 4}/orders_${i}.proto`).join('\n');
    const messages: Message[] = [
      user('Find every proto file of the order services.'),
      call('g1', 'Glob', { path: '/home/dev/shop/services', pattern: '**/orders_*.proto' }),
      result('g1', hits),
      assistant('There are 900 of them, one per service.'),
    ];
    for (let turn = 0; turn < 30; turn++) {
      const schema = Array.from({ length: 60 }, (_, k) => `  string field_${turn}_${k} = ${k + 1};`).join('\n');
      messages.push(
        user(`Look at service ${turn}.`),
        call(`r${turn}`, 'read_file', { path: `services/svc${turn}/api/v0/orders_${turn}.proto` }),
        result(`r${turn}`, schema),
        assistant(`Service ${turn} defines 60 fields and nothing else.`),
      );
    }
    const { final, figures } = await replayAtShareOfInput(messages);
    assert.ok(figures.checkpoints > 0, 'the session was compressed');
    const context = (final?.messages ?? []).map(messageText).join('\n');
    assert.match(context, /- Glob `\*\*\/orders_\*\.proto in \/home\/dev\/shop\/services`, [\d,]+ tokens: `[^`]+Glob[^`]+`/);
  });
});
