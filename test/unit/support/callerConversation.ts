/**
 * Conversations as a caller of a ctx model sends them: every request carries the whole history,
 * each message a fresh object (as when it crosses from another extension), with the caller's own
 * extra parts that the engine does not model.
 */
import type { IncomingMessage } from '../../../src/engine/conversation/incomingMessage';
import { textBlock, toolCallBlock, toolResultBlock, type Block, type Role, type ToolInput } from '../../../src/engine/types';

/** The caller's own message object: what it sent, with a marker the engine knows nothing about. */
export interface CallerMessage {
  readonly role: Role;
  readonly blocks: readonly Block[];
  readonly marker?: string;
}

export type Caller = IncomingMessage<CallerMessage>;

export const fromCaller = (role: Role, blocks: readonly Block[], extra: readonly string[] = []): Caller => ({
  role,
  blocks,
  extra,
  raw: { role, blocks, marker: 'cache-breakpoint' },
});

export const say = (text: string): Caller => fromCaller('user', [textBlock(text)]);
export const instructions = (text: string): Caller => fromCaller('system', [textBlock(text)]);
export const reply = (text: string): Caller => fromCaller('assistant', [textBlock(text)]);
export const callTool = (id: string, name: string, input: ToolInput, text = ''): Caller =>
  fromCaller('assistant', text ? [textBlock(text), toolCallBlock(id, name, input)] : [toolCallBlock(id, name, input)]);
export const toolOutput = (id: string, content: string, isError = false): Caller =>
  fromCaller('tool', [toolResultBlock(id, content, isError)]);

/** The same messages as new objects, as a caller re-sends them with its next request. */
export const resent = (messages: readonly Caller[]): Caller[] =>
  messages.map((m) => ({ ...m, blocks: m.blocks.map((b) => ({ ...b })), raw: { ...m.raw } }));

/** An agent exchange: a tool call with its output, then a short reply. */
export const agentTurn = (i: number, output: string): Caller[] => [
  callTool(`call-${i}`, 'run_in_terminal', { command: `make step-${i}` }),
  toolOutput(`call-${i}`, output),
  reply(`Step ${i} done.`),
];
