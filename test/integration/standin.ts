/**
 * Typed access to the test-only stand-in extension (test/extensions/standin, "ctx test stand-in: scripted
 * offline model"): its scripted language model, its recordings and its tools.
 */
import * as vscode from 'vscode';
import { patient } from './patience';

export const STANDIN_EXTENSION_ID = 'ctx-test.standin-model';
export const STANDIN_VENDOR = 'ctx-standin';
export const STANDIN_FAMILY = 'standin';
/** A tool returning a fake log of `lines` lines (~100 characters each). */
export const BIG_RESULT_TOOL = 'ctxStandin_bigResult';
/** How the user attaches it to a request. */
export const BIG_RESULT_REFERENCE = '#standinBigResult';
/** A tool that always throws (`message` becomes the error message). */
export const FAILING_TOOL = 'ctxStandin_fail';
/** A tool returning the text of a workspace file (`path`, relative to the workspace folder). */
export const READ_FILE_TOOL = 'ctxStandin_readFile';
/** A tool that asks for VS Code's confirmation, then pretends to run `command` (nothing is executed). */
export const RUN_COMMAND_TOOL = 'ctxStandin_runCommand';

/** One part of a scripted reply. */
export type ScriptPart =
  | { text: string }
  | { toolCall: { callId: string; name: string; input: object } }
  /** Makes the model throw; `code` turns it into that `vscode.LanguageModelError`. */
  | { error: string; code?: 'NotFound' | 'NoPermissions' | 'Blocked' }
  /** Waits before the next part (cancellable). */
  | { delayMs: number };

/** A reply: plain text, or its parts in order. */
export type ScriptReply = string | ScriptPart[];

/** A message part as the stand-in recorded it. */
export type RecordedPart =
  | { type: 'text'; text: string }
  | { type: 'toolCall'; callId: string; name: string; input: unknown }
  | { type: 'toolResult'; callId: string; isError: boolean; content: RecordedPart[] }
  | { type: 'data'; mimeType: string; bytes: number }
  | { type: 'other'; json: unknown };

/** One request the stand-in model received. */
export interface RecordedRequest {
  index: number;
  at: string;
  /** When the request reached the model (`Date.now()`). */
  atMs: number;
  /** The extension that sent it, e.g. "ctx-dev.ctx". */
  from: string;
  /** Empty when the stand-in was configured with `recordMessages: false`. */
  messages: { role: 'user' | 'assistant' | 'system'; name?: string; parts: RecordedPart[]; text: string }[];
  tools: { name: string; description: string; inputSchema: unknown }[];
  /** `vscode.LanguageModelChatToolMode`: 1 Auto, 2 Required. */
  toolMode?: number;
  modelOptions?: unknown;
  /** Whatever else VS Code passed in the request options. */
  options?: Record<string, unknown>;
  /** Stand-in count: characters / 4 of all message text. */
  inputTokens: number;
  /** False when nothing was queued and the deterministic default reply was sent. */
  scripted: boolean;
  /**
   * A caller's request to summarize its own conversation (Copilot's agent compacting its history), answered with
   * a `<summary>` of the stand-in's own and never from the script.
   */
  callerSummary: boolean;
  reply: ScriptPart[];
}

export interface StandinLimits {
  maxInputTokens?: number;
  maxOutputTokens?: number;
  /** How long each summary request takes, in milliseconds (0 by default). */
  summaryDelayMs?: number;
  /** Summaries copy the prompt's facts but those containing this text (a model that drops one); null: no facts (the default). */
  keepFactsExcept?: string | null;
  /** False: requests are recorded without their messages and summaries without their prompt (true by default). */
  recordMessages?: boolean;
}

/** A call of a stand-in tool; `returnedAtMs` is when the big result's tool returned (`Date.now()`). */
export interface ToolInvocation {
  name: string;
  input: unknown;
  at: string;
  atMs: number;
  returnedAtMs?: number;
}

/** Queues replies; the model answers the next requests with them, in order. Returns how many are queued. */
export async function script(...replies: ScriptReply[]): Promise<number> {
  return (await vscode.commands.executeCommand<number>('ctxStandin.script', replies)) ?? 0;
}

/** Every request the model received since the last reset. */
export async function requests(): Promise<RecordedRequest[]> {
  return (await vscode.commands.executeCommand<RecordedRequest[]>('ctxStandin.requests')) ?? [];
}

/** Calls of the stand-in tools since the last reset. */
export async function toolInvocations(): Promise<ToolInvocation[]> {
  return (await vscode.commands.executeCommand<ToolInvocation[]>('ctxStandin.toolInvocations')) ?? [];
}

/** The prompts of the checkpoint summaries ctx asked the stand-in for. */
/** A summary request of ctx's as the stand-in received it. */
export interface RecordedSummaryRequest {
  readonly at: string;
  readonly atMs: number;
  /** The summary prompt, or the question that ended the conversation. */
  readonly prompt: string;
  /** True when it was asked as the conversation's next request. */
  readonly inConversation: boolean;
  /** The conversation before the question (empty for a summary asked in a prompt of its own). */
  readonly messages: RecordedRequest['messages'];
  readonly tools: readonly string[];
}

export async function summaryRequests(): Promise<RecordedSummaryRequest[]> {
  return (await vscode.commands.executeCommand<RecordedSummaryRequest[]>('ctxStandin.summaryRequests')) ?? [];
}

/** Clears the script and the recordings. */
export async function reset(): Promise<void> {
  await vscode.commands.executeCommand('ctxStandin.reset');
}

/** Changes the model's limits (re-registers it) and returns them. */
export async function configure(limits: StandinLimits = {}): Promise<Required<StandinLimits>> {
  const answer = await vscode.commands.executeCommand<Required<StandinLimits>>('ctxStandin.configure', limits);
  if (!answer) throw new Error('ctxStandin.configure returned nothing: is the stand-in installed?');
  return answer;
}

/** Activates the stand-in and returns its model, waiting (bounded) for the registration to arrive. */
export async function model(timeoutMs = 10000): Promise<vscode.LanguageModelChat> {
  const extension = vscode.extensions.getExtension(STANDIN_EXTENSION_ID);
  if (!extension) throw new Error(`${STANDIN_EXTENSION_ID} is not installed: run the tests through test/vscode/harness.js`);
  await extension.activate();
  const deadline = Date.now() + patient(timeoutMs);
  for (;;) {
    const [found] = await vscode.lm.selectChatModels({ vendor: STANDIN_VENDOR });
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${STANDIN_VENDOR} model registered within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sends a request and collects the streamed parts: the text and the tool calls. */
export async function collect(
  response: vscode.LanguageModelChatResponse,
): Promise<{ text: string; toolCalls: vscode.LanguageModelToolCallPart[] }> {
  let text = '';
  const toolCalls: vscode.LanguageModelToolCallPart[] = [];
  for await (const part of response.stream) {
    if (part instanceof vscode.LanguageModelTextPart) text += part.value;
    else if (part instanceof vscode.LanguageModelToolCallPart) toolCalls.push(part);
  }
  return { text, toolCalls };
}
