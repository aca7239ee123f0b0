// TEST ONLY: plain descriptions of messages and tools, turned into VS Code's language-model types, and a
// model's answer turned back into plain parts, so tests can describe conversations as JSON.
'use strict';

const vscode = require('vscode');

/**
 * A message is `{ role: 'user' | 'assistant', parts }`; a part is `{ text }`, `{ toolCall: { callId, name,
 * input } }` or `{ toolResult: { callId, text } }`.
 */
function toChatMessage(message) {
  const parts = message.parts.map((p) => {
    if (typeof p.text === 'string') return new vscode.LanguageModelTextPart(p.text);
    if (p.toolCall) return new vscode.LanguageModelToolCallPart(p.toolCall.callId, p.toolCall.name, p.toolCall.input);
    if (p.toolResult)
      return new vscode.LanguageModelToolResultPart(p.toolResult.callId, [new vscode.LanguageModelTextPart(p.toolResult.text)]);
    throw new Error(`unknown message part ${JSON.stringify(p)}`);
  });
  return message.role === 'assistant' ? vscode.LanguageModelChatMessage.Assistant(parts) : vscode.LanguageModelChatMessage.User(parts);
}

/** A tool is `{ name, description, inputSchema }`, as `LanguageModelChatTool`. */
function toTool(tool) {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}

/** An answer part as plain JSON: `{ type: 'text', text }`, `{ type: 'toolCall', callId, name, input }` or `{ type: 'other' }`. */
function fromPart(part) {
  if (part instanceof vscode.LanguageModelTextPart) return { type: 'text', text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart)
    return { type: 'toolCall', callId: part.callId, name: part.name, input: part.input };
  return { type: 'other', constructor: part && part.constructor ? part.constructor.name : typeof part };
}

/** An error as plain JSON, keeping a `LanguageModelError`'s code. */
function fromError(e) {
  return {
    name: e && e.name,
    message: e && e.message ? e.message : String(e),
    code: e instanceof vscode.LanguageModelError ? e.code : undefined,
    isLanguageModelError: e instanceof vscode.LanguageModelError,
  };
}

module.exports = { toChatMessage, toTool, fromPart, fromError };
