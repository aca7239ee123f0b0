/**
 * Typed access to the test-only caller extension (test/extensions/model-caller, "ctx test caller"): it sends
 * whole conversations to a model from another extension, as Copilot's agent mode or any extension does.
 */
import * as vscode from 'vscode';
import { patient } from './patience';

export const CALLER_EXTENSION_ID = 'ctx-test.model-caller';
/** The vendor of ctx's models. */
export const CTX_VENDOR = 'ctx';

export type CallerPart =
  { text: string } | { toolCall: { callId: string; name: string; input: object } } | { toolResult: { callId: string; text: string } };

export interface CallerMessage {
  readonly role: 'user' | 'assistant';
  readonly parts: readonly CallerPart[];
}

export interface CallerTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: object;
}

export type AnswerPart =
  { type: 'text'; text: string } | { type: 'toolCall'; callId: string; name: string; input: object } | { type: 'other' };

export interface Answer {
  readonly parts: AnswerPart[];
  readonly error?: { name?: string; message: string; code?: string; isLanguageModelError: boolean };
  readonly cancelled: boolean;
}

export interface ModelInfo {
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  readonly family: string;
  readonly maxInputTokens: number;
}

interface CallerApi {
  models(vendor: string): Promise<ModelInfo[]>;
  send(request: {
    vendor: string;
    id?: string;
    messages: readonly CallerMessage[];
    tools?: readonly CallerTool[];
    toolMode?: vscode.LanguageModelChatToolMode;
    cancelAfterParts?: number;
    cancelAfterMs?: number;
  }): Promise<Answer>;
  countTokens(request: { vendor: string; id?: string; text?: string; message?: CallerMessage }): Promise<number>;
}

export async function caller(): Promise<CallerApi> {
  const extension = vscode.extensions.getExtension<CallerApi>(CALLER_EXTENSION_ID);
  if (!extension) throw new Error(`${CALLER_EXTENSION_ID} is not installed: run the tests through test/vscode/harness.js`);
  return extension.activate();
}

/** ctx's model wrapping the given model, waiting (bounded) until ctx lists it. */
export async function ctxModelFor(wrapped: { name: string }, timeoutMs = 10000): Promise<ModelInfo> {
  const api = await caller();
  const deadline = Date.now() + patient(timeoutMs);
  for (;;) {
    const found = (await api.models(CTX_VENDOR)).find((m) => m.name === `${wrapped.name} (ctx)`);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`ctx lists no model wrapping ${wrapped.name} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const text = (value: string): CallerPart => ({ text: value });
export const user = (...parts: CallerPart[]): CallerMessage => ({ role: 'user', parts });
export const assistant = (...parts: CallerPart[]): CallerMessage => ({ role: 'assistant', parts });
export const toolResult = (callId: string, value: string): CallerPart => ({ toolResult: { callId, text: value } });

/** The assistant message a caller keeps from an answer: its text and tool calls. */
export function fromAnswer(answer: Answer): CallerMessage {
  const parts: CallerPart[] = [];
  const said = answer.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
  if (said) parts.push(text(said));
  for (const p of answer.parts) if (p.type === 'toolCall') parts.push({ toolCall: { callId: p.callId, name: p.name, input: p.input } });
  return assistant(...parts);
}
