// TEST ONLY: "ctx test caller". Stands for any caller of a language model that is not ctx itself (Copilot's
// agent mode, another participant or extension): the tests use it to send whole conversations to ctx's models
// from another extension, as a real caller does, and to answer in the Chat view with the model picked there.
// It lives under test/ and is never packaged with ctx.
'use strict';

const vscode = require('vscode');
const { toChatMessage, toTool, fromPart, fromError } = require('./conversation');

const JUSTIFICATION = 'The ctx tests send a conversation through this model.';

/** The models of a vendor, as plain JSON. */
async function models(vendor) {
  return (await vscode.lm.selectChatModels({ vendor })).map((m) => ({
    id: m.id,
    name: m.name,
    vendor: m.vendor,
    family: m.family,
    version: m.version,
    maxInputTokens: m.maxInputTokens,
  }));
}

async function modelOf(request) {
  const found = (await vscode.lm.selectChatModels({ vendor: request.vendor })).find((m) => request.id === undefined || m.id === request.id);
  if (!found) throw new Error(`no model of vendor ${request.vendor}${request.id ? ` with id ${request.id}` : ''}`);
  return found;
}

/**
 * Sends `{ vendor, id?, messages, tools?, toolMode?, cancelAfterParts?, cancelAfterMs? }` and returns
 * `{ parts, error?, cancelled }`: every part of the answer in order, and the error the request ended with, if
 * any. The request is cancelled once `cancelAfterParts` parts arrived, or `cancelAfterMs` after it was sent.
 */
async function send(request) {
  const model = await modelOf(request);
  const source = new vscode.CancellationTokenSource();
  const parts = [];
  if (request.cancelAfterMs !== undefined) setTimeout(() => source.cancel(), request.cancelAfterMs);
  try {
    const response = await model.sendRequest(
      request.messages.map(toChatMessage),
      {
        justification: JUSTIFICATION,
        tools: (request.tools || []).map(toTool),
        ...(request.toolMode ? { toolMode: request.toolMode } : {}),
      },
      source.token,
    );
    for await (const part of response.stream) {
      parts.push(fromPart(part));
      if (request.cancelAfterParts && parts.length >= request.cancelAfterParts) {
        source.cancel();
        break;
      }
    }
    return { parts, cancelled: source.token.isCancellationRequested };
  } catch (e) {
    return { parts, error: fromError(e), cancelled: source.token.isCancellationRequested };
  } finally {
    source.dispose();
  }
}

/** Counts `{ vendor, id?, text }` or `{ vendor, id?, message }` with the model's own count. */
async function countTokens(request) {
  const model = await modelOf(request);
  return model.countTokens(request.message ? toChatMessage(request.message) : request.text);
}

function activate(context) {
  // Answers with the model picked in the Chat view, saying which one it was.
  const participant = vscode.chat.createChatParticipant('ctxCaller.participant', async (request, _chatContext, stream, token) => {
    stream.markdown(`Answer from ${request.model.name}: `);
    const response = await request.model.sendRequest(
      [vscode.LanguageModelChatMessage.User(request.prompt)],
      { justification: JUSTIFICATION },
      token,
    );
    for await (const text of response.text) stream.markdown(text);
    return {};
  });
  context.subscriptions.push(participant);
  return { models, send, countTokens };
}

function deactivate() {}

module.exports = { activate, deactivate };
