/**
 * The language-model summarizer: checkpoint summaries written by a model through `vscode.lm`,
 * without tools. The model is the one the `ctx.summarizer.model` setting names (a small fast
 * family, say), or else the chat request's own model. The engine falls back to its deterministic
 * summary whenever this one fails, times out or returns garbage.
 */
import * as vscode from 'vscode';
import { buildSummaryPrompt, type Cancellation, type Summarizer, type SummaryRequest } from '../engine/host/ports';

/** The setting's value that turns model summaries off. */
export const DETERMINISTIC_ONLY = 'deterministic';

export class LanguageModelSummarizer implements Summarizer {
  readonly name: string;
  readonly maxInputTokens: number;
  /** The model's id: the same as the conversation's model, a summary can be asked as the conversation's next request. */
  readonly modelId: string;

  constructor(private readonly model: vscode.LanguageModelChat) {
    this.name = model.name || model.id;
    this.maxInputTokens = model.maxInputTokens;
    this.modelId = model.id;
  }

  summarize(request: SummaryRequest, cancellation: Cancellation): Promise<string> {
    return answerText(
      this.model,
      [vscode.LanguageModelChatMessage.User(buildSummaryPrompt(request))],
      { justification: 'ctx summarizes older parts of your conversation so it fits the context window.' },
      cancellation,
    );
  }
}

/** The text of a model's answer to a request of ctx's own; tool calls in it are ignored. Rejects on cancellation. */
export async function answerText(
  model: vscode.LanguageModelChat,
  messages: Parameters<vscode.LanguageModelChat['sendRequest']>[0],
  options: vscode.LanguageModelChatRequestOptions,
  cancellation: Cancellation,
): Promise<string> {
  const source = new vscode.CancellationTokenSource();
  const subscription = cancellation.onCancellationRequested(() => source.cancel());
  try {
    const response = await model.sendRequest(messages, options, source.token);
    let text = '';
    for await (const part of response.text) {
      if (source.token.isCancellationRequested) throw new vscode.CancellationError();
      text += part;
    }
    return text;
  } finally {
    subscription.dispose();
    source.dispose();
  }
}

/**
 * The summarizer for a chat request: none when the setting asks for the deterministic summary
 * only, the named model when one matches, else the request's model.
 */
export async function summarizerFor(
  setting: string,
  requestModel: vscode.LanguageModelChat | undefined,
): Promise<LanguageModelSummarizer | undefined> {
  if (setting.toLowerCase() === DETERMINISTIC_ONLY) return undefined;
  if (setting) {
    const [named] = [...(await vscode.lm.selectChatModels({ id: setting })), ...(await vscode.lm.selectChatModels({ family: setting }))];
    if (named) return new LanguageModelSummarizer(named);
  }
  return requestModel ? new LanguageModelSummarizer(requestModel) : undefined;
}
