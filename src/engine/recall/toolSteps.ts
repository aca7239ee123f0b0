/**
 * The tool calls of a stretch of conversation paired with their results, each read once: what the
 * call did (files, commands), whether it worked, what it was about. Fact extraction and the error
 * resolution both work from these steps.
 */
import { classifyToolCall, type ToolActivity } from '../ledger/toolActivity';
import { toolOutcome } from '../ledger/toolOutcome';
import { commandOutcome } from '../ledger/commandOutcome';
import { filesOnlyPrinted } from '../ledger/shellReads';
import { toolResultBlock, type Message, type ToolCallBlock, type ToolResultBlock } from '../types';
import { inputValues, termsOf } from './terms';
import { outputNotice } from '../text/outputNotice';
import { calledWith } from '../ledger/callSubject';

/** One tool result with its call. */
export interface ToolStep {
  /** Order of the result among everything read (blocks of all messages, in order). */
  readonly seq: number;
  /** Index of the result's message in the messages read. */
  readonly messageIndex: number;
  readonly messageId: string;
  readonly call: ToolCallBlock | undefined;
  readonly result: ToolResultBlock;
  readonly activity: ToolActivity;
  readonly ok: boolean;
  /** The commands run or the paths touched, joined; undefined for other tools. */
  readonly subject: string | undefined;
  /** Distinctive terms of the call's input. */
  readonly terms: readonly string[];
  /** The host's note that the output went to a file (`outputNotice`), taken off `result`. */
  readonly notice?: string;
}

const OTHER: ToolActivity = { kind: 'other' };

/**
 * Every tool result of `messages` as a step, in order, and every output the host printed of something it ran
 * itself (`TextBlock.printed`), as a step no call asked for. A result's call is looked up in `messages`, then
 * through `findCall`. Linear in the number of blocks.
 */
export function readToolSteps(messages: readonly Message[], findCall?: (callId: string) => ToolCallBlock | undefined): ToolStep[] {
  const calls = new Map<string, ToolCallBlock>();
  for (const msg of messages) for (const block of msg.blocks) if (block.type === 'toolCall') calls.set(block.id, block);
  const steps: ToolStep[] = [];
  let seq = 0;
  messages.forEach((msg, messageIndex) => {
    for (const block of msg.blocks) {
      seq++;
      if (block.type === 'text' && block.printed === true) {
        steps.push(stepOf(toolResultBlock(`${msg.id}#printed-${seq}`, unframed(block.text), false), undefined, seq, messageIndex, msg.id));
      }
      if (block.type !== 'toolResult') continue;
      const call = calls.get(block.callId) ?? findCall?.(block.callId);
      steps.push(stepOf(block, call, seq, messageIndex, msg.id));
    }
  });
  return steps;
}

/** A printed output wholly inside the host's frame (`<local-command-stdout>…</local-command-stdout>`). */
const FRAMED = /^\s*<([A-Za-z][\w.:-]*)>([\s\S]*)<\/\1>\s*$/;

/**
 * What the host printed, without the frame it wraps the output in: the frame is the host's, what it holds is the
 * output, which a one-line frame would otherwise hide as a harness field (`withoutFields`).
 */
function unframed(text: string): string {
  return FRAMED.exec(text)?.[2] ?? text;
}

/**
 * A result without the host's note that its output went to a file, and the note: one copy per result and call, since
 * the steps are read again with every summary and a command's outcome is remembered per result (`commandOutcome`).
 */
const withoutNotices = new WeakMap<ToolResultBlock, { readonly call: ToolCallBlock | undefined; readonly read: NoticeRead }>();
interface NoticeRead {
  readonly result: ToolResultBlock;
  readonly notice: ReturnType<typeof outputNotice>;
}

function withoutNotice(given: ToolResultBlock, call: ToolCallBlock | undefined): NoticeRead {
  const known = withoutNotices.get(given);
  if (known !== undefined && known.call === call) return known.read;
  // A host's note that the output went to a file is read as what it is: the host's, not the program's.
  const notice = outputNotice(given.content, call ? inputValues(call.input) : '');
  const read = { result: notice ? { ...given, content: notice.rest } : given, notice };
  withoutNotices.set(given, { call, read });
  return read;
}

function stepOf(given: ToolResultBlock, call: ToolCallBlock | undefined, seq: number, messageIndex: number, messageId: string): ToolStep {
  const { result, notice } = withoutNotice(given, call);
  const classified = call ? classifyToolCall(call, result) : OTHER;
  const ok = (classified.kind === 'command' ? commandOutcome(result, classified.commands) : toolOutcome(result, false)).ok;
  const activity = ok ? asFileRead(classified) : classified;
  let subject: string | undefined;
  let terms: string[] = [];
  if (activity.kind === 'command') {
    subject = activity.commands.join(' ; ');
    terms = termsOf(subject);
  } else if (activity.kind === 'file') {
    subject = activity.paths.join(', ');
    terms = termsOf(activity.paths.join(' '));
  } else if (call) {
    terms = termsOf(inputValues(call.input, 1000));
    subject = calledWith(call);
  }
  return { seq, messageIndex, messageId, call, result, activity, ok, subject, terms, ...(notice ? { notice: notice.line } : {}) };
}

/**
 * A command that only printed files (`sed -n '40,80p' a.ts`, `cat a.ts`) read them: what it printed is their content,
 * as a read tool's result is, not what a step came to. One that failed stays a command, whose error it reported.
 */
function asFileRead(activity: ToolActivity): ToolActivity {
  if (activity.kind !== 'command') return activity;
  const printed = activity.commands.map(filesOnlyPrinted);
  return printed.every((files) => files.length > 0) ? { kind: 'file', action: 'read', paths: [...new Set(printed.flat())] } : activity;
}
