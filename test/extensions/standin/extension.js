// TEST ONLY: "ctx test stand-in: scripted offline model".
//
// Stands in for Copilot in ctx's real-VS-Code tests, where no real model can be reached:
//   - a default chat participant (the Chat view answers a message without `@` only when one is registered);
//   - a language model (vendor `ctx-standin`, family `standin`) registered with the finalized
//     `LanguageModelChatProvider` API (model.js): it answers from a script the tests queue, or
//     deterministically when nothing is queued, and records every request it receives;
//   - language-model tools (tools.js): a very large result, a failure, reading a workspace file, and a
//     pretend shell command that asks for VS Code's confirmation.
// Only the default participant needs a proposed API (defaultChatParticipant), so code-server is started with
// `--enable-proposed-api ctx-test.standin-model`. Plain JavaScript: no proposed typings needed.
// It lives under test/ and is never packaged with ctx.
'use strict';

const vscode = require('vscode');
const { StandinModel, VENDOR, DEFAULT_MAX_INPUT_TOKENS } = require('./model');
const { safeJson } = require('./messages');
const { registerTools, invocationRecord } = require('./tools');

/** Set on code-server by `npm start` (test/vscode/start.js) to play the demo conversation. */
const DEMO_ENV = 'CTX_STANDIN_DEMO';

function readMaxInputTokens() {
  const fromEnv = Number(process.env.CTX_STANDIN_MAX_INPUT_TOKENS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return vscode.workspace.getConfiguration('ctxStandin').get('maxInputTokens', DEFAULT_MAX_INPUT_TOKENS);
}

/**
 * What tests and other test extensions can use: the same operations as the commands, returned from
 * `activate` so `vscode.extensions.getExtension('ctx-test.standin-model').exports` gives them.
 */
function createApi(model) {
  return {
    vendor: VENDOR,
    script: (replies) => model.queue(replies),
    requests: () => safeJson(model.requests),
    summaryRequests: () => safeJson(model.summaryRequests),
    toolInvocations: () => safeJson(model.toolInvocations),
    reset: () => {
      model.reset();
      return true;
    },
    configure: (limits) => model.configure(limits),
  };
}

function activate(context) {
  const model = new StandinModel(readMaxInputTokens());
  context.subscriptions.push(model, vscode.lm.registerLanguageModelChatProvider(VENDOR, model));

  const participant = vscode.chat.createChatParticipant('ctxStandin.default', (request, _chatContext, stream) => {
    stream.markdown(
      `This is the **ctx test stand-in** default participant (offline, no Copilot). ` +
        `Mention \`@ctx\` to talk to ctx. You said: ${request.prompt.slice(0, 200)}`,
    );
    return {};
  });
  context.subscriptions.push(participant);
  context.subscriptions.push(
    ...registerTools((name, input) => {
      const invocation = invocationRecord(name, input);
      model.toolInvocations.push(invocation);
      return invocation;
    }),
  );

  const api = createApi(model);
  context.subscriptions.push(
    /** Queues replies: an array of replies; a reply is a list of parts ({text} | {toolCall} | {error} | {delayMs}). */
    vscode.commands.registerCommand('ctxStandin.script', api.script),
    vscode.commands.registerCommand('ctxStandin.requests', api.requests),
    vscode.commands.registerCommand('ctxStandin.summaryRequests', api.summaryRequests),
    vscode.commands.registerCommand('ctxStandin.toolInvocations', api.toolInvocations),
    vscode.commands.registerCommand('ctxStandin.reset', api.reset),
    vscode.commands.registerCommand('ctxStandin.configure', api.configure),
    /** Plays the `npm start` demo conversation now, in a new chat; returns the id of the session it made. */
    vscode.commands.registerCommand('ctxStandin.playDemo', () => require('./demo').playDemoNow(model)),
  );

  // `npm start` only (test/vscode/start.js sets CTX_STANDIN_DEMO=1): play a scripted demo conversation
  // with @ctx once, in a workspace that has no ctx session yet. Tests never set the variable.
  if (process.env[DEMO_ENV] === '1') void require('./demo').runDemo(context, model);
  return api;
}

function deactivate() {}

module.exports = { activate, deactivate };
