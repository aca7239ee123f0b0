/** Converts between the engine's messages and `vscode.LanguageModelChatMessage`. */
import * as vscode from 'vscode';
import type { Message } from '../engine/host/messages';

/**
 * The engine's messages as chat messages. VS Code has no system role, so the system prompt goes
 * first as a user message; tool results travel in user messages, consecutive ones merged so every
 * result follows its call directly.
 */
export function toChatMessages(messages: readonly Message[]): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  let pendingResults: vscode.LanguageModelToolResultPart[] = [];
  const flushResults = () => {
    if (pendingResults.length > 0) out.push(vscode.LanguageModelChatMessage.User(pendingResults));
    pendingResults = [];
  };
  for (const m of messages) {
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
      continue;
    }
    flushResults();
    if (m.role === 'assistant') {
      const parts: (vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart)[] = [];
      for (const b of m.blocks) {
        if (b.type === 'text' && b.text.length > 0) parts.push(new vscode.LanguageModelTextPart(b.text));
        if (b.type === 'toolCall') parts.push(new vscode.LanguageModelToolCallPart(b.id, b.name, b.input));
      }
      if (parts.length > 0) out.push(vscode.LanguageModelChatMessage.Assistant(parts));
    } else {
      const text = m.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
      if (text.length > 0) out.push(vscode.LanguageModelChatMessage.User(text));
    }
  }
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
