/**
 * What ctx sends to the wrapped model, as chat messages. The caller's own messages go as they
 * came, except that system messages become user messages: sending the system role needs a
 * proposed API. Messages ctx wrote or changed are converted from the engine's blocks. A message
 * the engine placed a cache breakpoint on ends with one; a caller's message keeps its own only
 * there (`engine/promptCache/cacheBreakpoints.ts`).
 */
import * as vscode from 'vscode';
import type { Message } from '../../engine/host/messages';
import type { Outgoing } from '../../engine/host/relay';
import { cacheBreakpointParts, isCacheBreakpoint } from '../cacheControl';

type RequestMessage = vscode.LanguageModelChatRequestMessage;
type Part = vscode.LanguageModelInputPart;

export function toForwarded(outgoing: readonly Outgoing<RequestMessage>[]): vscode.LanguageModelChatMessage[] {
  return outgoing.flatMap((o) => {
    if (o.kind === 'engine') return withBreakpoint(fromEngine(o.message), o.breakpoint === true);
    const role = o.system ? vscode.LanguageModelChatMessageRole.User : o.raw.role;
    const content = [...o.raw.content] as Part[];
    const parts = o.breakpoint === true ? content : content.filter((p) => !isCacheBreakpoint(p));
    if (o.breakpoint === true && !parts.some(isCacheBreakpoint)) parts.push(...cacheBreakpointParts());
    return [new vscode.LanguageModelChatMessage(role, parts, o.raw.name)];
  });
}

/** Whether a caller's message carries a cache breakpoint of its own. */
export function hasCacheBreakpoint(raw: RequestMessage): boolean {
  return raw.content.some(isCacheBreakpoint);
}

/** The messages with a breakpoint after the last one's content, when asked for. */
function withBreakpoint(messages: vscode.LanguageModelChatMessage[], breakpoint: boolean): vscode.LanguageModelChatMessage[] {
  const last = messages.at(-1);
  if (!breakpoint || !last) return messages;
  return [
    ...messages.slice(0, -1),
    new vscode.LanguageModelChatMessage(last.role, [...(last.content as Part[]), ...cacheBreakpointParts()], last.name),
  ];
}

function fromEngine(m: Message): vscode.LanguageModelChatMessage[] {
  const parts: Part[] = [];
  for (const b of m.blocks) {
    if (b.type === 'text' && b.text.length > 0) parts.push(new vscode.LanguageModelTextPart(b.text));
    if (b.type === 'toolCall' && m.role === 'assistant') parts.push(new vscode.LanguageModelToolCallPart(b.id, b.name, b.input));
    if (b.type === 'toolResult') {
      parts.push(
        new vscode.LanguageModelToolResultPart(b.callId, [new vscode.LanguageModelTextPart(b.isError ? `Error: ${b.content}` : b.content)]),
      );
    }
  }
  if (parts.length === 0) return [];
  // Tool results go first in their message: a model reads them as the answer to the calls just made.
  const ordered = [
    ...parts.filter((p) => p instanceof vscode.LanguageModelToolResultPart),
    ...parts.filter((p) => !(p instanceof vscode.LanguageModelToolResultPart)),
  ];
  return [
    m.role === 'assistant'
      ? new vscode.LanguageModelChatMessage(vscode.LanguageModelChatMessageRole.Assistant, parts)
      : new vscode.LanguageModelChatMessage(vscode.LanguageModelChatMessageRole.User, ordered),
  ];
}
