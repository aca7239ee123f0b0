/** Converts between the engine's messages and `vscode.LanguageModelChatMessage`. */
import * as vscode from 'vscode';
import type { Message } from '../engine/host/messages';
import { cacheBreakpointParts, type PartWithBreakpoint } from './cacheControl';

/**
 * The engine's messages as chat messages. VS Code has no system role, so the system prompt goes
 * first as a user message; tool results travel in user messages, consecutive ones merged so every
 * result follows its call directly. A message marked in `breakpoints` (same order as `messages`)
 * ends with a cache breakpoint (`cacheControl.ts`).
 */
export function toChatMessages(messages: readonly Message[], breakpoints: readonly boolean[] = []): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  let pendingResults: PartWithBreakpoint[] = [];
  const flushResults = () => {
    if (pendingResults.length > 0) out.push(new vscode.LanguageModelChatMessage(vscode.LanguageModelChatMessageRole.User, pendingResults));
    pendingResults = [];
  };
  messages.forEach((m, index) => {
    const breakpoint = breakpoints[index] === true;
    if (m.role === 'tool') {
      for (const b of m.blocks) {
        if (b.type === 'toolResult') {
          pendingResults.push(
            new vscode.LanguageModelToolResultPart(b.callId, [
              new vscode.LanguageModelTextPart(b.isError ? `Error: ${b.content}` : b.content),
            ]),
          );
        }
      }
      if (breakpoint && pendingResults.length > 0) pendingResults.push(...cacheBreakpointParts());
      return;
    }
    flushResults();
    if (m.role === 'assistant') {
      const parts: PartWithBreakpoint[] = [];
      for (const b of m.blocks) {
        if (b.type === 'text' && b.text.length > 0) parts.push(new vscode.LanguageModelTextPart(b.text));
        if (b.type === 'toolCall') parts.push(new vscode.LanguageModelToolCallPart(b.id, b.name, b.input));
      }
      if (breakpoint && parts.length > 0) parts.push(...cacheBreakpointParts());
      if (parts.length > 0) out.push(new vscode.LanguageModelChatMessage(vscode.LanguageModelChatMessageRole.Assistant, parts));
    } else {
      const text = m.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
      if (text.length > 0) {
        const parts = breakpoint ? [new vscode.LanguageModelTextPart(text), ...cacheBreakpointParts()] : text;
        out.push(new vscode.LanguageModelChatMessage(vscode.LanguageModelChatMessageRole.User, parts));
      }
    }
  });
  flushResults();
  return out;
}

/** The text of a tool result, whatever parts it came in. */
export function toolResultText(result: vscode.LanguageModelToolResult): string {
  return result.content
    .map((part) => {
      if (part instanceof vscode.LanguageModelTextPart) return part.value;
      if (part instanceof vscode.LanguageModelPromptTsxPart) return JSON.stringify(part.value);
      return typeof part === 'string' ? part : JSON.stringify(part);
    })
    .join('\n');
}
