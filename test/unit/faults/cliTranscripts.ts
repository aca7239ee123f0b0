/** Small transcripts built for the command-line fault tests: OpenAI-style chat with tool calls. */

export interface ChatMessage {
  readonly role: string;
  readonly content: string | null;
  readonly tool_calls?: readonly { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  readonly tool_call_id?: string;
  readonly timestamp?: number;
}

/** A user request, then `steps` tool calls with results of `resultChars` characters each. */
export function chatWithTools(steps: number, resultChars = 200): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'user', content: 'Find why the build of the inventory service fails.' }];
  for (let i = 1; i <= steps; i++) {
    messages.push({
      role: 'assistant',
      content: `Looking at part ${i}.`,
      tool_calls: [
        { id: `call_${i}`, type: 'function', function: { name: 'run_command', arguments: JSON.stringify({ command: `make part${i}` }) } },
      ],
    });
    messages.push({
      role: 'tool',
      tool_call_id: `call_${i}`,
      content: `line of output ${i} from the inventory build\n`.repeat(Math.ceil(resultChars / 44)),
    });
  }
  messages.push({ role: 'assistant', content: 'The build fails in part 3.' });
  return messages;
}

/** The transcript file's text. */
export const chatText = (messages: readonly ChatMessage[]): string => JSON.stringify({ messages });

/** `[[[…1…]]]`, `depth` levels. */
export const nestedArray = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
