// TEST ONLY: "ctx test control". A chat participant, `@control`, that runs the same tool loop as the `@ctx`
// participant (src/vscode/toolLoop.ts) with nothing of ctx: the model picked in the Chat view, the stand-in's
// tools, the model's text streamed into the response as markdown, "Running <tool>…" as progress before each call,
// the tools run through `vscode.lm.invokeTool` with the request's invocation token, their results as text. Where ctx
// manages the context, the control sends the user's prompt and the latest rounds that fit the model's window
// (characters / 4, the stand-in's count): the least a tool loop must do for every request to fit. The benchmark
// of a long turn (test/integration/ctxRoundCost.test.ts) runs it beside @ctx to tell what ctx adds from what VS
// Code's chat costs by itself. It lives under test/ and is never packaged with ctx.
'use strict';

const vscode = require('vscode');

/** The tools it offers: the stand-in's, as the benchmark allows @ctx (`ctx.tools.allowed: ["ctxStandin_*"]`). */
const TOOL_PREFIX = 'ctxStandin_';
/** Requests it sends at most in one turn; the benchmark's turns stay below it. */
const MAX_ROUNDS = 1000;
/** Tokens kept free for the answer, as ctx's default `ctx.budget.answerReserveTokens` (a model here tells only its input window). */
const ANSWER_RESERVE_TOKENS = 4096;
const JUSTIFICATION = 'The ctx tests compare a tool loop without ctx.';

/** Stand-in token count of a string: characters / 4, rounded up. */
const tokens = (chars) => Math.ceil(chars / 4);

/** The text of a tool result, whatever parts it came in (as ctx's `toolResultText`). */
function resultText(result) {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : JSON.stringify(part))).join('\n');
}

/** The prompt and the latest rounds whose text fits `budget` stand-in tokens (each round: the answer and its results). */
function fitting(prompt, rounds, budget) {
  let used = tokens(prompt.length);
  let first = rounds.length;
  while (first > 0 && used + rounds[first - 1].tokens <= budget) used += rounds[--first].tokens;
  return [vscode.LanguageModelChatMessage.User(prompt), ...rounds.slice(first).flatMap((r) => r.messages)];
}

/** Runs the tool loop of one request and answers in `stream`. */
async function answer(request, stream, token) {
  const model = request.model;
  const budget = model.maxInputTokens - ANSWER_RESERVE_TOKENS;
  const tools = vscode.lm.tools.filter((t) => t.name.startsWith(TOOL_PREFIX));
  const rounds = [];
  for (let round = 0; round < MAX_ROUNDS && !token.isCancellationRequested; round++) {
    const response = await model.sendRequest(fitting(request.prompt, rounds, budget), { tools, justification: JUSTIFICATION }, token);
    let text = '';
    const calls = [];
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) {
        text += part.value;
        stream.markdown(part.value);
      } else if (part instanceof vscode.LanguageModelToolCallPart) calls.push(part);
    }
    if (calls.length === 0) return;
    const results = [];
    for (const call of calls) {
      stream.progress(`Running ${call.name}…`);
      const result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: request.toolInvocationToken }, token);
      results.push(new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart(resultText(result))]));
    }
    const chars =
      text.length +
      results.reduce((n, r) => n + r.content[0].value.length, 0) +
      calls.reduce((n, c) => n + JSON.stringify(c.input).length + 64, 0);
    rounds.push({
      tokens: tokens(chars),
      messages: [
        vscode.LanguageModelChatMessage.Assistant([...(text ? [new vscode.LanguageModelTextPart(text)] : []), ...calls]),
        vscode.LanguageModelChatMessage.User(results),
      ],
    });
  }
}

function activate(context) {
  const participant = vscode.chat.createChatParticipant('ctxControl.participant', async (request, _chatContext, stream, token) => {
    await answer(request, stream, token);
    return {};
  });
  context.subscriptions.push(participant);
}

function deactivate() {}

module.exports = { activate, deactivate };
