// TEST ONLY: how the stand-in model records what it receives: message parts as plain JSON (text, tool call,
// tool result, data, anything else), one readable line per part, and its stand-in token count.
'use strict';

const vscode = require('vscode');

/** Role numbers of LanguageModelChatMessageRole (3 is the proposed System role). */
const ROLE_NAMES = { 1: 'user', 2: 'assistant', 3: 'system' };

/**
 * Stand-in token count: characters / 4, rounded up. Not a real tokenizer; good enough for tests that
 * need a monotonic, deterministic count.
 */
function countTokens(text) {
  return Math.ceil(text.length / 4);
}

/** A value as plain JSON (what survives `executeCommand`), or its string form. */
function safeJson(value) {
  try {
    return JSON.parse(JSON.stringify(value === undefined ? null : value));
  } catch {
    return String(value);
  }
}

/** Renders one message part into plain JSON (text, tool call, tool result, data, or anything else). */
function renderPart(part) {
  if (part instanceof vscode.LanguageModelTextPart) return { type: 'text', text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart) {
    return { type: 'toolCall', callId: part.callId, name: part.name, input: safeJson(part.input) };
  }
  if (part && typeof part === 'object' && typeof part.callId === 'string' && Array.isArray(part.content)) {
    return { type: 'toolResult', callId: part.callId, isError: Boolean(part.isError), content: part.content.map(renderPart) };
  }
  if (part && typeof part === 'object' && typeof part.mimeType === 'string' && part.data) {
    return { type: 'data', mimeType: part.mimeType, bytes: part.data.byteLength ?? part.data.length ?? 0 };
  }
  if (part && typeof part === 'object' && typeof part.value === 'string') return { type: 'text', text: part.value };
  return { type: 'other', json: safeJson(part) };
}

/** The mime type of Copilot's cache breakpoint part (what ctx sends through `vscode.lm`). */
const CACHE_CONTROL_MIME = 'cache_control';

/** One line of text per part, for a readable transcript and for token counting. */
function partText(rendered) {
  switch (rendered.type) {
    case 'text':
      return rendered.text;
    case 'toolCall':
      return `[tool call ${rendered.name} ${rendered.callId}] ${JSON.stringify(rendered.input)}`;
    case 'toolResult':
      return `[tool result ${rendered.callId}${rendered.isError ? ' (error)' : ''}] ${rendered.content.map(partText).join('')}`;
    case 'data':
      // A cache breakpoint tells the provider where a cached prefix ends; a model never reads it as text.
      return rendered.mimeType === CACHE_CONTROL_MIME ? '' : `[data ${rendered.mimeType} ${rendered.bytes} bytes]`;
    default:
      return JSON.stringify(rendered.json);
  }
}

/** A request message as `{role, name, parts, text}`. */
function renderMessage(message) {
  const content = typeof message.content === 'string' ? [new vscode.LanguageModelTextPart(message.content)] : message.content;
  const parts = (content || []).map(renderPart);
  return {
    role: ROLE_NAMES[message.role] || String(message.role),
    name: message.name,
    parts,
    text: parts
      .map(partText)
      .filter((t) => t !== '')
      .join('\n'),
  };
}

module.exports = { countTokens, safeJson, renderMessage };
