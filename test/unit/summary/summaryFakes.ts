/** Stand-ins for summary tests: a character-count tokenizer, a small tool record, a scripted model. */
import type { Cancellation } from '../../../src/engine/cancellation';
import type { CommandRecord, ErrorRecord, FileAction, FileRecord, ToolRecord } from '../../../src/engine/model/ledgerTypes';
import { buildSummaryPrompt } from '../../../src/engine/summary/summaryPrompt';
import type { RecoveryReferences, Summarizer, SummaryGuide, SummaryRequest } from '../../../src/engine/summary/summarizer';
import type { CountText } from '../../../src/engine/model/countText';
import { message, textBlock, toolCallBlock, toolResultBlock, type Message } from '../../../src/engine/types';

/** One token per four characters: exact counts do not matter here. */
export const countChars: CountText = async (text) => Math.ceil(text.length / 4);

export const REFERENCES: RecoveryReferences = {
  archive: 'sessions/s1/archive.jsonl',
  offloaded: 'sessions/s1/offloaded/',
  firstMessageId: 'u1',
  lastMessageId: 'a9',
};

export function guide(intent: string, more: Partial<SummaryGuide> = {}): SummaryGuide {
  return { intent, goals: [], decisions: [], progress: [], ...more };
}

export function historyRequest(messages: readonly Message[], targetTokens: number, more: Partial<SummaryRequest> = {}): SummaryRequest {
  return { kind: 'history', messages, guide: guide('Fix the failing login test'), targetTokens, references: REFERENCES, ...more };
}

const FILE_ACTIONS: Readonly<Record<string, FileAction>> = {
  read_file: 'read',
  write_file: 'created',
  edit_file: 'edited',
  Read: 'read',
  Write: 'created',
  Edit: 'edited',
};

/** A small record of what the tools did: files by `path`, commands by `command`, errors from error results. */
export function recordTools(messages: readonly Message[]): ToolRecord {
  const files = new Map<string, FileRecord>();
  const commands: CommandRecord[] = [];
  const errors: ErrorRecord[] = [];
  const calls = new Map<string, { name: string; input: Readonly<Record<string, unknown>> }>();
  let at = 0;
  for (const msg of messages) {
    for (const block of msg.blocks) {
      at++;
      if (block.type === 'toolCall') {
        calls.set(block.id, { name: block.name, input: block.input });
        const action = FILE_ACTIONS[block.name];
        const path = block.input.path ?? block.input.file_path;
        if (action !== undefined && typeof path === 'string') {
          const actions = files.get(path)?.actions ?? [];
          files.set(path, { path, actions: actions.includes(action) ? actions : [...actions, action], lastAt: at, lastCallId: block.id });
        }
      } else if (block.type === 'toolResult') {
        const call = calls.get(block.callId);
        const command = call?.input.command;
        const exit = /exit code (\d+)/i.exec(block.content);
        const exitCode = exit ? Number(exit[1]) : undefined;
        if (typeof command === 'string') {
          commands.push({ callId: block.callId, command, exitCode, ok: !block.isError && (exitCode ?? 0) === 0, at });
        }
        if (block.isError) {
          const subject = typeof command === 'string' ? command : undefined;
          errors.push({
            callId: block.callId,
            toolName: call?.name ?? 'tool',
            summary: block.content.split('\n')[0],
            subject,
            at,
            fixed: false,
          });
        }
      }
    }
  }
  return { files: [...files.values()], commands, errors, offloaded: [] };
}

export interface ModelCall {
  readonly request: SummaryRequest;
  readonly promptTokens: number;
}

/**
 * A language model stand-in: rejects prompts larger than its window, as a real endpoint would,
 * records every call, and answers with a short summary within the target.
 */
export class FakeModelSummarizer implements Summarizer {
  readonly calls: ModelCall[] = [];
  name = 'fake-model';

  constructor(
    readonly maxInputTokens: number,
    private readonly answer: (request: SummaryRequest, call: number) => string | Promise<string> = defaultAnswer,
  ) {}

  async summarize(request: SummaryRequest, _cancellation: Cancellation): Promise<string> {
    const promptTokens = await countChars(buildSummaryPrompt(request));
    this.calls.push({ request, promptTokens });
    if (promptTokens > this.maxInputTokens) {
      throw new Error(`prompt of ${promptTokens} tokens exceeds the window of ${this.maxInputTokens}`);
    }
    return this.answer(request, this.calls.length);
  }
}

/** About half the target, in words. */
function defaultAnswer(request: SummaryRequest): string {
  const words = Math.max(1, Math.floor((request.targetTokens * 4) / 2 / 8));
  return `## Session Summary\nSummary of ${request.messages.length} messages: ${'progress '.repeat(words)}`.slice(
    0,
    request.targetTokens * 2,
  );
}

/** A long agent session of `count` messages: a step's text and command, then its output of 60 lines, every 7th failing. */
export function longCommandSession(count: number): Message[] {
  const messages: Message[] = [];
  for (let i = 0; messages.length < count; i++) {
    messages.push(
      message(`a${i}`, 'assistant', [
        textBlock(`Step ${i}: I'll use approach ${i} instead of approach ${i - 1}. Now let me check \`src/m${i}.ts\`.`),
        toolCallBlock(`c${i}`, 'bash', { command: `npm test -- ${i}` }),
      ]),
      message(`t${i}`, 'tool', [
        toolResultBlock(
          `c${i}`,
          `line of output ${i}\n`.repeat(60) + (i % 7 === 0 ? 'Error: boom\nexit code 2' : 'exit code 0'),
          i % 7 === 0,
        ),
      ]),
    );
  }
  return messages;
}
