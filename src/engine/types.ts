/**
 * The conversation model every part of the engine works on. The VS Code layer converts
 * `LanguageModelChatMessage` parts to and from it; importers convert transcripts into it.
 *
 * Messages and blocks are treated as immutable values: a tier that changes one returns a new
 * object, which is what lets token counts be cached per block object.
 */

export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface TextBlock {
  readonly type: 'text';
  readonly text: string;
  /**
   * True for text nobody in the session wrote, which a tool or an agent put into a user or system
   * message: an attached file, repository instructions, a reminder, an orphaned tool output. It is
   * data: markers in it set nothing, and it is not the user's words. Absent means written by the
   * message's author.
   */
  readonly injected?: boolean;
  /**
   * True for injected text the host printed as the output of something it ran itself (a command the user ran
   * through it, its own report of an edit, a commit or a failed model call): no tool call asked for it, but it
   * is read like a tool's output, for the errors it shows and the lines it ended with.
   */
  readonly printed?: boolean;
  /**
   * True for injected text the host sent as the user's request at the user's command (the prompt of a slash command
   * they typed): kept with the user's messages, since it is what they asked for, but it is data all the same, written
   * by whoever wrote the command, so its markers set nothing and it is no session intent.
   */
  readonly requested?: boolean;
}

/** Tool input is whatever JSON the model produced for the call. */
export type ToolInput = Readonly<Record<string, unknown>>;

export interface ToolCallBlock {
  readonly type: 'toolCall';
  /** Stable id the result refers to. */
  readonly id: string;
  readonly name: string;
  readonly input: ToolInput;
}

export interface ToolResultBlock {
  readonly type: 'toolResult';
  /** Id of the tool call this result answers. */
  readonly callId: string;
  readonly content: string;
  readonly isError: boolean;
  /** Name of the tool that produced it, when known (importers and the host fill it in). */
  readonly toolName?: string;
}

export type Block = TextBlock | ToolCallBlock | ToolResultBlock;

export interface Message {
  /** Stable across the session: the archive, the active context and snapshots refer to it. */
  readonly id: string;
  readonly role: Role;
  readonly blocks: readonly Block[];
  /** Milliseconds since the epoch, when the message entered the session. */
  readonly at?: number;
}

export function textBlock(text: string): TextBlock {
  return { type: 'text', text };
}

/** A text block that nobody in the session wrote (see `TextBlock.injected`). */
export function injectedTextBlock(text: string): TextBlock {
  return { type: 'text', text, injected: true };
}

/** The host's text sent as the user's request at their command (see `TextBlock.requested`). */
export function requestedTextBlock(text: string): TextBlock {
  return { type: 'text', text, injected: true, requested: true };
}

/** Output the host printed of something it ran itself (see `TextBlock.printed`). */
export function printedTextBlock(text: string): TextBlock {
  return { type: 'text', text, injected: true, printed: true };
}

export function toolCallBlock(id: string, name: string, input: ToolInput): ToolCallBlock {
  return { type: 'toolCall', id, name, input };
}

export function toolResultBlock(callId: string, content: string, isError = false, toolName?: string): ToolResultBlock {
  return toolName === undefined
    ? { type: 'toolResult', callId, content, isError }
    : { type: 'toolResult', callId, content, isError, toolName };
}

export function message(id: string, role: Role, blocks: readonly Block[], at?: number): Message {
  return at === undefined ? { id, role, blocks } : { id, role, blocks, at };
}

/** All the text of a message's text blocks, joined. */
export function messageText(msg: Message): string {
  return msg.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
}

/** The text the message's author wrote: its text blocks that are not injected, joined. */
export function authoredText(msg: Message): string {
  return textOf(msg, (b) => b.injected !== true);
}

/** What a user message asked for: the user's own words and the host's text sent as their request (`TextBlock.requested`). */
export function requestText(msg: Message): string {
  return textOf(msg, (b) => b.injected !== true || b.requested === true);
}

/** The text of the message's text blocks that `keep` takes, joined. */
function textOf(msg: Message, keep: (block: TextBlock) => boolean): string {
  return msg.blocks.flatMap((b) => (b.type === 'text' && keep(b) ? [b.text] : [])).join('\n');
}

/** True for a user message with words of the user's own, not only what a host put in it (a notice, a command's output). */
export function userWrote(msg: Pick<Message, 'role' | 'blocks'>): boolean {
  return msg.role === 'user' && msg.blocks.some((b) => b.type === 'text' && b.injected !== true && b.text.trim() !== '');
}

/** Everything a message says, as text: its text blocks, its tool calls' inputs as JSON, its tool results. */
export function messageContentText(msg: Message): string {
  return msg.blocks.map((b) => (b.type === 'text' ? b.text : b.type === 'toolCall' ? JSON.stringify(b.input) : b.content)).join('\n');
}

export function toolCalls(msg: Message): ToolCallBlock[] {
  return msg.blocks.filter((b): b is ToolCallBlock => b.type === 'toolCall');
}

export function toolResults(msg: Message): ToolResultBlock[] {
  return msg.blocks.filter((b): b is ToolResultBlock => b.type === 'toolResult');
}
