// TEST ONLY: "ctx test stand-in: scripted offline model".
//
// Stands in for Copilot in ctx's real-VS-Code tests, where no real model can be reached:
//   - a default chat participant (VS Code 1.100 shows the Chat view only when one is registered);
//   - a language model (vendor `ctx-standin`, family `standin`) that answers from a script the tests queue,
//     or deterministically when nothing is queued, and records every request it receives;
//   - two language-model tools: one returning a very large result, one that always fails.
// It uses two proposed APIs (defaultChatParticipant, chatProvider), so it is plain JavaScript (no proposed
// typings needed) and code-server must be started with `--enable-proposed-api ctx-test.standin-model`.
// It lives under test/ and is never packaged with ctx.
'use strict';

const vscode = require('vscode');

const VENDOR = 'ctx-standin';
const MODEL_ID = 'standin';
const FAMILY = 'standin';
const DEFAULT_MAX_INPUT_TOKENS = 16000;
const DEFAULT_MAX_OUTPUT_TOKENS = 4096;
const ROLE_NAMES = { 1: 'user', 2: 'assistant', 3: 'system' };
/** Set on code-server by `npm start` (test/vscode/start.js) to play the demo conversation. */
const DEMO_ENV = 'CTX_STANDIN_DEMO';

/**
 * Stand-in token count: characters / 4, rounded up. Not a real tokenizer; good enough for tests that
 * need a monotonic, deterministic count.
 */
function countTokens(text) {
  return Math.ceil(text.length / 4);
}

/** Renders one message part into plain JSON (text, tool call, tool result, data, or anything else). */
function renderPart(part) {
  if (part instanceof vscode.LanguageModelTextPart) return { type: 'text', text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart) {
    return { type: 'toolCall', callId: part.callId, name: part.name, input: part.input };
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
      return `[data ${rendered.mimeType} ${rendered.bytes} bytes]`;
    default:
      return JSON.stringify(rendered.json);
  }
}

function renderMessage(message) {
  const content = typeof message.content === 'string' ? [new vscode.LanguageModelTextPart(message.content)] : message.content;
  const parts = (content || []).map(renderPart);
  return {
    role: ROLE_NAMES[message.role] || String(message.role),
    name: message.name,
    parts,
    text: parts.map(partText).join('\n'),
  };
}

function safeJson(value) {
  try {
    return JSON.parse(JSON.stringify(value === undefined ? null : value));
  } catch {
    return String(value);
  }
}

/** Accepts a reply as a string, a part, or a list of parts; returns a list of parts. */
function normalizeReply(reply) {
  if (typeof reply === 'string') return [{ text: reply }];
  if (Array.isArray(reply)) return reply.map((p) => (typeof p === 'string' ? { text: p } : p));
  if (reply && typeof reply === 'object') return [reply];
  throw new Error(`ctx test stand-in: a reply must be a string, a part or a list of parts, got ${JSON.stringify(reply)}`);
}

function defaultReply(rendered) {
  const lastUser = [...rendered].reverse().find((m) => m.role === 'user');
  const text = lastUser ? lastUser.text : '';
  const preview = text.length > 80 ? `${text.slice(0, 80)}…` : text;
  return [
    {
      text:
        `Stand-in reply: "${preview.replace(/\s+/g, ' ')}" ` +
        `(last user message ${text.length} chars; ${rendered.length} messages; ` +
        `~${countTokens(rendered.map((m) => m.text).join('\n'))} stand-in tokens in total)`,
    },
  ];
}

/** ctx asks for checkpoint summaries with this justification (src/vscode/modelSummarizer.ts). */
function isSummaryRequest(options) {
  return typeof options.justification === 'string' && options.justification.startsWith('ctx summarizes');
}

/** A short, deterministic summary in the requested structure, naming the request it answers. */
function standinSummary(rendered, number) {
  const prompt = rendered.map((m) => m.text).join('\n');
  const words = prompt.length;
  return [
    '## Session Summary',
    `Stand-in summary ${number} of a ${words}-character prompt.`,
    '### Next Steps',
    `[NEXT] Continue from stand-in summary ${number}`,
  ].join('\n');
}

function delay(ms, token) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const sub = token.onCancellationRequested(() => {
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
  });
}

function makeError(part) {
  const factory = part.code && vscode.LanguageModelError && vscode.LanguageModelError[part.code];
  if (typeof factory === 'function') return factory.call(vscode.LanguageModelError, part.error);
  return new Error(part.error);
}

/** The scripted model: a queue of replies and a record of every request. */
class StandinModel {
  constructor() {
    this.script = [];
    this.requests = [];
    this.toolInvocations = [];
    this.summaryRequests = [];
  }

  reset() {
    this.script = [];
    this.requests = [];
    this.toolInvocations = [];
    this.summaryRequests = [];
  }

  async provideLanguageModelResponse(messages, options, extensionId, progress, token) {
    const rendered = messages.map(renderMessage);
    if (isSummaryRequest(options)) {
      // Summaries never take scripted replies: the tests script the conversation, not ctx's housekeeping.
      this.summaryRequests.push({ at: new Date().toISOString(), prompt: rendered.map((m) => m.text).join('\n') });
      progress.report({ index: 0, part: new vscode.LanguageModelTextPart(standinSummary(rendered, this.summaryRequests.length)) });
      return;
    }
    const scripted = this.script.length > 0;
    const reply = scripted ? this.script.shift() : defaultReply(rendered);
    this.requests.push({
      index: this.requests.length,
      at: new Date().toISOString(),
      from: extensionId,
      messages: rendered,
      tools: (options.tools || []).map((t) => ({ name: t.name, description: t.description, inputSchema: safeJson(t.inputSchema) })),
      toolMode: options.toolMode,
      modelOptions: safeJson(options.modelOptions),
      justification: options.justification,
      inputTokens: countTokens(rendered.map((m) => m.text).join('\n')),
      scripted,
      reply: safeJson(reply),
    });
    // `index` is the choice index: every part of the one answer goes to choice 0 (the stream that
    // `LanguageModelChatResponse.stream` reads); another index would open a stream nobody reads.
    for (const part of reply) {
      if (token.isCancellationRequested) return;
      if (typeof part.delayMs === 'number') {
        await delay(part.delayMs, token);
      } else if (typeof part.text === 'string') {
        progress.report({ index: 0, part: new vscode.LanguageModelTextPart(part.text) });
      } else if (part.toolCall) {
        const { callId, name, input } = part.toolCall;
        progress.report({ index: 0, part: new vscode.LanguageModelToolCallPart(callId, name, input || {}) });
      } else if (typeof part.error === 'string') {
        throw makeError(part);
      } else {
        throw new Error(`ctx test stand-in: unknown reply part ${JSON.stringify(part)}`);
      }
    }
  }

  provideTokenCount(value) {
    if (typeof value === 'string') return countTokens(value);
    return countTokens(renderMessage(value).text);
  }
}

/**
 * A fake build log of `lines` lines, deterministic, about 100 characters a line, then the `tail` lines
 * as given (the demo ends its logs with the errors it talks about; tests pass no tail).
 */
function fakeLog(lines, tail = []) {
  const out = [];
  for (let i = 1; i <= lines; i++) {
    const level = i % 97 === 0 ? 'WARN' : 'INFO';
    out.push(
      `2025-01-01T00:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000Z ` +
        `[${level}] step ${String(i).padStart(6, '0')}: compiled src/module${i % 50}.ts in ${(i * 7) % 400} ms (stand-in log)`,
    );
  }
  out.push(...tail);
  return out.join('\n');
}

function readMaxInputTokens() {
  const fromEnv = Number(process.env.CTX_STANDIN_MAX_INPUT_TOKENS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return vscode.workspace.getConfiguration('ctxStandin').get('maxInputTokens', DEFAULT_MAX_INPUT_TOKENS);
}

function activate(context) {
  const model = new StandinModel();
  let limits = { maxInputTokens: readMaxInputTokens(), maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS };
  let registration;

  function register() {
    if (registration) registration.dispose();
    registration = vscode.lm.registerChatModelProvider(MODEL_ID, model, {
      vendor: VENDOR,
      name: 'ctx stand-in (offline demo model)',
      family: FAMILY,
      version: '1',
      description: 'Scripted offline stand-in model for ctx tests and demos; not a real model.',
      maxInputTokens: limits.maxInputTokens,
      maxOutputTokens: limits.maxOutputTokens,
      isDefault: true,
      isUserSelectable: true,
      capabilities: { vision: false, toolCalling: true, agentMode: true },
    });
  }
  register();
  context.subscriptions.push({ dispose: () => registration && registration.dispose() });

  const participant = vscode.chat.createChatParticipant('ctxStandin.default', (request, _chatContext, stream) => {
    stream.markdown(
      `This is the **ctx test stand-in** default participant (offline, no Copilot). ` +
        `Mention \`@ctx\` to talk to ctx. You said: ${request.prompt.slice(0, 200)}`,
    );
    return {};
  });
  context.subscriptions.push(participant);

  context.subscriptions.push(
    vscode.lm.registerTool('ctxStandin_bigResult', {
      invoke(options) {
        const lines = Math.max(1, Math.floor(Number(options.input && options.input.lines) || 2000));
        model.toolInvocations.push({ name: 'ctxStandin_bigResult', input: safeJson(options.input), at: new Date().toISOString() });
        const tail = Array.isArray(options.input && options.input.tail) ? options.input.tail.map(String) : [];
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(fakeLog(lines, tail))]);
      },
    }),
    vscode.lm.registerTool('ctxStandin_fail', {
      invoke(options) {
        model.toolInvocations.push({ name: 'ctxStandin_fail', input: safeJson(options.input), at: new Date().toISOString() });
        throw new Error((options.input && options.input.message) || 'ctx test stand-in: this tool always fails');
      },
    }),
  );

  context.subscriptions.push(
    /** Queues replies: an array of replies; a reply is a list of parts ({text} | {toolCall} | {error} | {delayMs}). */
    vscode.commands.registerCommand('ctxStandin.script', (replies) => {
      if (!Array.isArray(replies)) throw new Error('ctxStandin.script expects an array of replies');
      model.script.push(...replies.map(normalizeReply));
      return model.script.length;
    }),
    vscode.commands.registerCommand('ctxStandin.requests', () => safeJson(model.requests)),
    vscode.commands.registerCommand('ctxStandin.summaryRequests', () => safeJson(model.summaryRequests)),
    vscode.commands.registerCommand('ctxStandin.toolInvocations', () => safeJson(model.toolInvocations)),
    vscode.commands.registerCommand('ctxStandin.reset', () => {
      model.reset();
      return true;
    }),
    vscode.commands.registerCommand('ctxStandin.configure', (options) => {
      const next = { ...limits, ...(options || {}) };
      if (next.maxInputTokens !== limits.maxInputTokens || next.maxOutputTokens !== limits.maxOutputTokens) {
        limits = next;
        register();
      }
      return { vendor: VENDOR, id: MODEL_ID, family: FAMILY, ...limits, queued: model.script.length };
    }),
  );

  // `npm start` only (test/vscode/start.js sets CTX_STANDIN_DEMO=1): play a scripted demo conversation
  // with @ctx once, in a workspace that has no ctx session yet. Tests never set the variable.
  if (process.env[DEMO_ENV] === '1') void require('./demo').runDemo(context, model, normalizeReply);
}

function deactivate() {}

module.exports = { activate, deactivate };
