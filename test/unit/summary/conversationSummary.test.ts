import * as assert from 'node:assert/strict';
import { NEVER_CANCELLED } from '../../../src/engine/cancellation';
import { summarizeInChunks } from '../../../src/engine/summary/chunkedSummary';
import {
  askingInConversation,
  conversationCopyOf,
  conversationQuestion,
  conversationTokens,
  SUMMARY_QUESTION_ID,
} from '../../../src/engine/summary/conversationSummary';
import type { ConversationCopy, Summarizer, SummaryRequest } from '../../../src/engine/summary/summarizer';
import { message, textBlock, toolCallBlock, toolResultBlock, type Message } from '../../../src/engine/types';

const context = message('ctx-context', 'user', [textBlock('## Context\nThe ledger and the checkpoints.')]);
const conversation: Message[] = [
  context,
  message('u1', 'user', [textBlock('Port the parser to the new grammar.')]),
  message('a1', 'assistant', [textBlock('Reading the grammar first.'), toolCallBlock('c1', 'read_file', { path: 'grammar.y' })]),
  message('t1', 'tool', [toolResultBlock('c1', 'expr: term | expr PLUS term ;')]),
  message('a2', 'assistant', [textBlock('The grammar is left-recursive; I will rewrite it.')]),
  message('u2', 'user', [textBlock('Go ahead.')]),
];
const tokens = conversation.map((_, i) => 100 + i);
const countChars = async (t: string) => Math.ceil(t.length / 4);

function request(copy: ConversationCopy | undefined): SummaryRequest {
  return {
    kind: 'history',
    messages: conversation.slice(1, 5),
    guide: { intent: 'Port the parser.', goals: [], decisions: [], progress: [] },
    targetTokens: 300,
    references: { archive: 'archive.jsonl', offloaded: 'offloaded', firstMessageId: 'u1', lastMessageId: 'a2' },
    besideLedger: true,
    ...(copy ? { conversation: copy } : {}),
  };
}

/** A stand-in for the conversation's own model: records what each way of asking was given. */
class RecordingSummarizer implements Summarizer {
  readonly name = 'conversation-model';
  readonly asked: { messages: readonly Message[] }[] = [];
  readonly prompts: string[] = [];
  constructor(readonly maxInputTokens: number) {}
  async summarize(r: SummaryRequest): Promise<string> {
    this.prompts.push(r.messages.map((m) => m.id).join(','));
    return '## Session Summary\nfrom its own prompt';
  }
}

describe('a summary asked as the conversation’s next request', () => {
  it('places the messages to summarize in the conversation, and only when they are all there, in order', () => {
    const copy = conversationCopyOf(conversation, tokens, ['u1', 'a1', 't1', 'a2']);
    assert.ok(copy);
    assert.equal(copy.first, 1);
    assert.equal(copy.last, 4);
    assert.equal(
      conversationTokens(copy),
      tokens.reduce((a, b) => a + b, 0),
    );
    assert.equal(conversationCopyOf(conversation, tokens, ['u1', 't1']), undefined, 'a gap');
    assert.equal(conversationCopyOf(conversation, tokens, ['gone', 'u1']), undefined, 'a message no longer sent');
    assert.equal(conversationCopyOf(conversation, tokens, []), undefined);
  });

  it('asks for the summary of the span by its first and last messages’ opening words, with the goals, rules and format of every summary', () => {
    const copy = conversationCopyOf(conversation, tokens, ['u1', 'a1', 't1', 'a2']);
    assert.ok(copy);
    const question = conversationQuestion(request(copy), copy);
    assert.match(question, /Summarize the 4 messages of the conversation above/);
    assert.match(question, /begins «Port the parser to the new grammar\.»/);
    assert.match(question, /through the one that begins «The grammar is left-recursive; I will rewrite it\.»/);
    assert.match(question, /call no tool/);
    assert.match(question, /SESSION INTENT/);
    assert.match(question, /## Session Summary/);
    assert.doesNotMatch(question, /BEGIN CONVERSATION/, 'the messages are not rendered again');
  });

  it('sends the conversation as it was, with the question as one more user message at its end', async () => {
    const copy = conversationCopyOf(conversation, tokens, ['u1', 'a1']);
    assert.ok(copy);
    const sent: (readonly Message[])[] = [];
    const model = askingInConversation(new RecordingSummarizer(100_000), async (messages) => {
      sent.push(messages);
      return '## Session Summary\nasked in the conversation';
    });
    const text = await summarizeInChunks(model, request(copy), { countText: countChars, cancellation: NEVER_CANCELLED });
    assert.equal(text, '## Session Summary\nasked in the conversation');
    assert.equal(sent.length, 1);
    assert.deepEqual(sent[0].slice(0, conversation.length), conversation, 'the conversation, message for message');
    const question = sent[0].at(-1);
    assert.equal(question?.id, SUMMARY_QUESTION_ID);
    assert.equal(question?.role, 'user');
  });

  it('falls back to a prompt of its own when the conversation and the question do not fit the model’s window, or the summarizer is another model', async () => {
    const copy = conversationCopyOf(conversation, tokens, ['u1', 'a1', 't1', 'a2']);
    assert.ok(copy);
    let asked = 0;
    const small = new RecordingSummarizer(1_200);
    const tooSmall = askingInConversation(small, async () => {
      asked++;
      return '## Session Summary\nasked';
    });
    const text = await summarizeInChunks(tooSmall, request(copy), { countText: countChars, cancellation: NEVER_CANCELLED });
    assert.equal(text, '## Session Summary\nfrom its own prompt');
    assert.equal(asked, 0, `a conversation of ${conversationTokens(copy)} tokens does not fit a window of 1,200 with the question`);
    const other = new RecordingSummarizer(100_000);
    await summarizeInChunks(other, request(copy), { countText: countChars, cancellation: NEVER_CANCELLED });
    assert.deepEqual(other.prompts, ['u1,a1,t1,a2'], 'another model reads the span in a prompt of its own');
  });
});
