// TEST ONLY: the stand-in language model, as a `LanguageModelChatProvider` (the API finalized in VS Code 1.104).
// It answers from a queue of scripted replies, or deterministically when nothing is queued, and records every
// request it receives: messages, tools, tool mode and the other options, for tests to read.
'use strict';

const vscode = require('vscode');
const { countTokens, renderMessage, safeJson } = require('./messages');

const VENDOR = 'ctx-standin';
const MODEL_ID = 'standin';
const FAMILY = 'standin';
const DEFAULT_MAX_INPUT_TOKENS = 16000;
const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

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

/** Openings of the prompts ctx's summarizer sends (src/engine/summary/summaryPrompt.ts). */
const SUMMARY_PROMPT_OPENINGS = ['You are writing a checkpoint summary', 'You are compressing one tool result'];

/** How ctx's question opens when it asks a summary as the conversation's next request (src/engine/summary/conversationSummary.ts). */
const CONVERSATION_SUMMARY_OPENING =
  'ctx, which keeps this conversation inside the context window, interrupts the work for a checkpoint summary';

/**
 * ctx's own summary requests: one user message, no tools, opening like ctx's summary prompts ('prompt'); or the
 * conversation with ctx's question as its last user message, asked with the conversation's tools ('conversation').
 * The finalized provider API does not pass the caller's justification on, so the prompt is what tells them apart.
 */
function summaryRequestKind(rendered, options) {
  const last = rendered[rendered.length - 1];
  if (last && last.role === 'user' && last.text.startsWith(CONVERSATION_SUMMARY_OPENING)) return 'conversation';
  if ((options.tools || []).length > 0 || rendered.length !== 1 || rendered[0].role !== 'user') return undefined;
  return SUMMARY_PROMPT_OPENINGS.some((opening) => rendered[0].text.startsWith(opening)) ? 'prompt' : undefined;
}

/**
 * How a caller's own compaction request ends: Copilot's agent (VS Code 1.139's built-in Copilot Chat) asks the
 * selected model to summarize its history, with a last user message opening like one of these (its "simple" and
 * "full" summarization prompts).
 */
const CALLER_SUMMARY_OPENINGS = [
  'The conversation has grown too large for the context window and must be compacted now',
  'Summarize the conversation history so far',
];

/**
 * A caller's request to summarize its own conversation (not ctx's): its last message is a user message opening like a
 * compaction prompt. Only the last message counts, so a conversation that once held such a prompt is not one.
 */
function isCallerSummaryRequest(rendered) {
  const last = rendered[rendered.length - 1];
  return Boolean(last) && last.role === 'user' && CALLER_SUMMARY_OPENINGS.some((opening) => last.text.trimStart().startsWith(opening));
}

/** The call ids of the tool calls a request holds, in order. */
function toolCallIds(rendered) {
  return rendered.flatMap((m) => m.parts.filter((p) => p.type === 'toolCall').map((p) => p.callId));
}

/**
 * A deterministic summary for a caller's compaction request, wrapped in the `<summary>` tags Copilot asks for: it
 * names the request it answers and the last tool call it saw, so the caller's history after it says where it was.
 */
function callerSummary(rendered, number) {
  const calls = toolCallIds(rendered);
  return [
    '<summary>',
    `Stand-in summary ${number} of the caller's conversation (${rendered.length} messages, ${calls.length} tool calls).`,
    `Last tool call: ${calls.length > 0 ? calls[calls.length - 1] : 'none'}. Continue with the next part.`,
    '</summary>',
  ].join('\n');
}

/** The fact lines ctx lists in a summary prompt (after "FACTS FROM THESE MESSAGES"), without their dash. */
function promptFacts(prompt) {
  const at = prompt.indexOf('FACTS FROM THESE MESSAGES');
  if (at < 0) return [];
  const lines = [];
  for (const line of prompt.slice(at).split('\n').slice(1)) {
    if (!line.startsWith('- ')) break;
    lines.push(line.slice(2));
  }
  return lines;
}

/**
 * A short, deterministic summary in the requested structure, naming the request it answers. With
 * `keepFactsExcept` set it copies the prompt's facts like a careful model would, but drops those that
 * contain that text, like a model that lost one.
 */
function standinSummary(rendered, number, keepFactsExcept) {
  const prompt = rendered.map((m) => m.text).join('\n');
  const facts = keepFactsExcept === undefined ? [] : promptFacts(prompt).filter((f) => !f.includes(keepFactsExcept));
  return [
    '## Session Summary',
    `Stand-in summary ${number} of a ${prompt.length}-character prompt.`,
    ...(facts.length > 0 ? ['### Critical Facts', ...facts.map((f) => `- ${f}`)] : []),
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

/** Options a provider receives, as plain JSON: the documented ones by name, then whatever else the host passed. */
function recordedOptions(options) {
  const { tools, toolMode, modelOptions, ...rest } = options;
  return {
    tools: (tools || []).map((t) => ({ name: t.name, description: t.description, inputSchema: safeJson(t.inputSchema) })),
    toolMode,
    modelOptions: safeJson(modelOptions),
    otherOptions: safeJson(rest),
  };
}

/** The scripted model: a queue of replies, a record of every request, and the model's limits. */
class StandinModel {
  constructor(maxInputTokens = DEFAULT_MAX_INPUT_TOKENS) {
    this.limits = { maxInputTokens, maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS };
    /** How long a summary takes (ms), so tests can watch what ctx shows while it waits. */
    this.summaryDelayMs = 0;
    /** False: requests are recorded without their messages, and summaries without their prompt (long benchmarks). */
    this.recordMessages = true;
    /** When set, summaries copy the prompt's facts except those containing this text. */
    this.keepFactsExcept = undefined;
    this.changeEmitter = new vscode.EventEmitter();
    /** Fired when the limits change, so VS Code asks for the model information again. */
    this.onDidChangeLanguageModelChatInformation = this.changeEmitter.event;
    this.reset();
  }

  reset() {
    this.script = [];
    this.requests = [];
    this.toolInvocations = [];
    this.summaryRequests = [];
  }

  /** Queues replies; returns how many are queued. */
  queue(replies) {
    if (!Array.isArray(replies)) throw new Error('ctx test stand-in: script expects an array of replies');
    this.script.push(...replies.map(normalizeReply));
    return this.script.length;
  }

  /** Changes the limits the model reports, and how long a summary takes. */
  configure(options) {
    const { summaryDelayMs, keepFactsExcept, recordMessages, ...limits } = options || {};
    if (typeof recordMessages === 'boolean') this.recordMessages = recordMessages;
    if (typeof summaryDelayMs === 'number' && summaryDelayMs >= 0) this.summaryDelayMs = summaryDelayMs;
    // A string: summaries keep the prompt's facts but those containing it; null: summaries keep no facts.
    if (keepFactsExcept !== undefined) this.keepFactsExcept = keepFactsExcept === null ? undefined : keepFactsExcept;
    const next = { ...this.limits, ...limits };
    if (next.maxInputTokens !== this.limits.maxInputTokens || next.maxOutputTokens !== this.limits.maxOutputTokens) {
      this.limits = next;
      this.changeEmitter.fire();
    }
    return {
      vendor: VENDOR,
      id: MODEL_ID,
      family: FAMILY,
      ...this.limits,
      summaryDelayMs: this.summaryDelayMs,
      recordMessages: this.recordMessages,
      keepFactsExcept: this.keepFactsExcept ?? null,
      queued: this.script.length,
    };
  }

  /**
   * The model's information. `isDefault` and `isUserSelectable` are read by VS Code although the finalized
   * typings do not declare them: without them, and with no Copilot, the Chat view's model picker lists no
   * extension model.
   */
  provideLanguageModelChatInformation() {
    return [
      {
        id: MODEL_ID,
        name: 'ctx stand-in (offline demo model)',
        family: FAMILY,
        version: '1',
        tooltip: 'Scripted offline stand-in model for ctx tests and demos; not a real model.',
        detail: 'test stand-in',
        maxInputTokens: this.limits.maxInputTokens,
        maxOutputTokens: this.limits.maxOutputTokens,
        capabilities: { imageInput: false, toolCalling: true },
        isDefault: true,
        isUserSelectable: true,
      },
    ];
  }

  async provideLanguageModelChatResponse(_model, messages, options, progress, token) {
    // When the request arrived, before the stand-in's own work on it: benchmarks time the gaps before requests.
    const atMs = Date.now();
    const rendered = messages.map(renderMessage);
    const summaryKind = summaryRequestKind(rendered, options);
    if (summaryKind) {
      // Summaries never take scripted replies: the tests script the conversation, not ctx's housekeeping.
      const question = summaryKind === 'conversation' ? rendered.slice(-1) : rendered;
      const prompt = question.map((m) => m.text).join('\n');
      this.summaryRequests.push({
        at: new Date(atMs).toISOString(),
        atMs,
        prompt: this.recordMessages ? prompt : '',
        inConversation: summaryKind === 'conversation',
        // The conversation before the question, to compare with the requests before it.
        messages: this.recordMessages && summaryKind === 'conversation' ? rendered.slice(0, -1) : [],
        tools: (options.tools || []).map((t) => t.name),
      });
      if (this.summaryDelayMs > 0) await delay(this.summaryDelayMs, token);
      progress.report(new vscode.LanguageModelTextPart(standinSummary(question, this.summaryRequests.length, this.keepFactsExcept)));
      return;
    }
    // A caller's compaction request is answered with a summary, never from the script: the tests script the
    // conversation, and the caller decides by itself when to compact.
    const callerCompaction = isCallerSummaryRequest(rendered);
    const scripted = !callerCompaction && this.script.length > 0;
    const reply = callerCompaction
      ? [{ text: callerSummary(rendered, this.requests.filter((r) => r.callerSummary).length + 1) }]
      : scripted
        ? this.script.shift()
        : defaultReply(rendered);
    const { otherOptions, ...recorded } = recordedOptions(options);
    this.requests.push({
      index: this.requests.length,
      at: new Date(atMs).toISOString(),
      atMs,
      from: typeof options.requestInitiator === 'string' ? options.requestInitiator : 'unknown',
      messages: this.recordMessages ? rendered : [],
      ...recorded,
      options: otherOptions,
      inputTokens: countTokens(rendered.map((m) => m.text).join('\n')),
      scripted,
      callerSummary: callerCompaction,
      reply: safeJson(reply),
    });
    for (const part of reply) {
      if (token.isCancellationRequested) return;
      if (typeof part.delayMs === 'number') {
        await delay(part.delayMs, token);
      } else if (typeof part.text === 'string') {
        progress.report(new vscode.LanguageModelTextPart(part.text));
      } else if (part.toolCall) {
        const { callId, name, input } = part.toolCall;
        progress.report(new vscode.LanguageModelToolCallPart(callId, name, input || {}));
      } else if (typeof part.error === 'string') {
        throw makeError(part);
      } else {
        throw new Error(`ctx test stand-in: unknown reply part ${JSON.stringify(part)}`);
      }
    }
  }

  provideTokenCount(_model, value) {
    return Promise.resolve(typeof value === 'string' ? countTokens(value) : countTokens(renderMessage(value).text));
  }

  dispose() {
    this.changeEmitter.dispose();
  }
}

module.exports = { StandinModel, normalizeReply, VENDOR, MODEL_ID, FAMILY, DEFAULT_MAX_INPUT_TOKENS };
