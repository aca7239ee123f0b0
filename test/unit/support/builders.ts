/** Builders for conversations in tests: short to write, stable ids. */
import { message, textBlock, toolCallBlock, toolResultBlock, type Message, type ToolInput } from '../../../src/engine/types';

let counter = 0;
const nextId = (prefix: string) => `${prefix}${++counter}`;

export const user = (text: string, id = nextId('u')): Message => message(id, 'user', [textBlock(text)]);
export const assistant = (text: string, id = nextId('a')): Message => message(id, 'assistant', [textBlock(text)]);
export const system = (text: string): Message => message('sys', 'system', [textBlock(text)]);

/** An assistant message with some text and one tool call. */
export const call = (callId: string, name: string, input: ToolInput, text = ''): Message =>
  message(nextId('a'), 'assistant', text ? [textBlock(text), toolCallBlock(callId, name, input)] : [toolCallBlock(callId, name, input)]);

export const result = (callId: string, content: string, isError = false, toolName?: string): Message =>
  message(nextId('t'), 'tool', [toolResultBlock(callId, content, isError, toolName)]);

/** Text of roughly `tokens` tokens under the CharTokenizer (four characters a token), in lines. */
export const filler = (tokens: number, word = 'lorem'): string => {
  const line = `${word} ipsum dolor sit amet, consectetur adipiscing elit\n`;
  return line.repeat(Math.ceil((tokens * 4) / line.length));
};
