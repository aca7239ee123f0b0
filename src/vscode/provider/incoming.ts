/**
 * The caller's messages as the engine reads them. Text, tool calls and tool results become blocks.
 * Who wrote a user turn's text is decided by `turnTextBlocks` (`userTurn.ts`), from the host's
 * framing only: Copilot's last `<userRequest>`, which it appends after every attachment and which must end
 * the turn, is the user's and everything before it is injected (an attached file holding the tag
 * cannot lock a decision); without it, everything between the first and the last of the editors'
 * own tags is injected. Injected text is never the user's words, never the session intent;
 * images become a short placeholder (and count in the digest by type, size and hash); cache markers,
 * reasoning and other parts the engine does not model are left to the caller's own message, which
 * is what gets forwarded while ctx has not changed it.
 */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { type Block, type Role, toolCallBlock, toolResultBlock } from '../../engine/host/messages';
import type { IncomingMessage } from '../../engine/host/relay';
import { turnTextBlocks, type TurnPiece } from './userTurn';

/** The proposed system role's value; the finalized API knows only User and Assistant. */
export const SYSTEM_ROLE = 3;

type RequestMessage = vscode.LanguageModelChatRequestMessage;

interface DataPart {
  readonly mimeType: string;
  readonly data: Uint8Array;
}

function isDataPart(part: unknown): part is DataPart {
  return (
    typeof part === 'object' &&
    part !== null &&
    typeof (part as { mimeType?: unknown }).mimeType === 'string' &&
    (part as { data?: unknown }).data instanceof Uint8Array
  );
}

/** Real content types have a slash (`image/png`); callers' markers (`cache_control`) do not. */
function isContent(part: DataPart): boolean {
  return part.mimeType.includes('/');
}

function placeholder(part: DataPart): string {
  return `[${part.mimeType}, ${part.data.byteLength.toLocaleString('en-US')} bytes]`;
}

function identity(part: DataPart): string {
  return `${part.mimeType}:${part.data.byteLength}:${createHash('sha1').update(part.data).digest('hex')}`;
}

/** The text of a tool result's content. */
export function resultText(content: readonly unknown[]): string {
  return content
    .map((part) => {
      if (part instanceof vscode.LanguageModelTextPart) return part.value;
      if (part instanceof vscode.LanguageModelPromptTsxPart) return JSON.stringify(part.value);
      if (isDataPart(part)) return isContent(part) ? placeholder(part) : '';
      return '';
    })
    .join('');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function toIncoming(raw: RequestMessage): IncomingMessage<RequestMessage> {
  const texts: TurnPiece[] = [];
  const blocks: Block[] = [];
  const extra: string[] = [];
  let hasResults = false;
  // In a user's turn only the host's framing of the user's words is theirs; tool results and the assistant's text keep their role.
  const fromUser = raw.role === vscode.LanguageModelChatMessageRole.User;
  const flushText = () => {
    blocks.push(...turnTextBlocks(texts, fromUser));
    texts.length = 0;
  };
  for (const part of raw.content) {
    if (part instanceof vscode.LanguageModelTextPart) texts.push({ text: part.value });
    else if (part instanceof vscode.LanguageModelToolCallPart) {
      flushText();
      blocks.push(toolCallBlock(part.callId, part.name, isObject(part.input) ? part.input : { value: part.input }));
    } else if (part instanceof vscode.LanguageModelToolResultPart) {
      flushText();
      hasResults = true;
      blocks.push(toolResultBlock(part.callId, resultText(part.content), (part as { isError?: unknown }).isError === true));
    } else if (isDataPart(part) && isContent(part)) {
      texts.push({ text: placeholder(part), standIn: true });
      extra.push(identity(part));
    }
  }
  flushText();
  return { role: roleOf(raw.role, hasResults), blocks, extra, raw };
}

function roleOf(role: number, hasResults: boolean): Role {
  if (role === vscode.LanguageModelChatMessageRole.Assistant) return 'assistant';
  if (role === SYSTEM_ROLE) return 'system';
  return hasResults ? 'tool' : 'user';
}
