/** The wrapped model's answer as relay parts; each keeps the model's own part object, which is what is forwarded. */
import * as vscode from 'vscode';
import { toolCallBlock } from '../../engine/host/messages';
import type { RelayPart } from '../../engine/host/relay';

export async function* relayParts(stream: AsyncIterable<unknown>): AsyncIterable<RelayPart<unknown>> {
  for await (const part of stream) {
    if (part instanceof vscode.LanguageModelTextPart) yield { kind: 'text', text: part.value, part };
    else if (part instanceof vscode.LanguageModelToolCallPart) {
      const input =
        typeof part.input === 'object' && part.input !== null && !Array.isArray(part.input) ? part.input : { value: part.input };
      yield { kind: 'toolCall', call: toolCallBlock(part.callId, part.name, input as Record<string, unknown>), part };
    } else yield { kind: 'other', part };
  }
}
