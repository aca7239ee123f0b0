/**
 * SWE-agent trajectories (`.traj`): the `history` list, in the function-calling variant (OpenAI
 * `tool_calls`, results in `tool` messages with `tool_call_ids`) or the text-action variant (the
 * command in a fenced block and in `action`; the next user message is its observation).
 * `trajectory[]` repeats every step and is not read. The first user message is the task; every
 * later user message the environment wrote (an observation no action asked for, a format error),
 * so it is injected text.
 */
import { type Block, textBlock, toolCallBlock, toolResultBlock } from '../../engine/host/messages';
import { fencedBlocks, withoutBlock } from './fencedBlocks';
import { TranscriptFormatError } from './importErrors';
import type { ImportSink } from './importSink';
import { injectedPart } from './messageDraft';
import { arrayField, isJsonObject, stringField, type JsonObject } from './jsonShape';
import { addRead } from './openAi';
import { OpenAiMessageReader } from './openAiMessageReader';
import { renderContent } from './renderContent';

/** Tool name of a text action: the commands run in SWE-agent's shell. */
export const TEXT_ACTION_TOOL = 'bash';

/** Adds the trajectory's history (demonstrations left out) to one session of the sink. */
export function importSweAgent(document: unknown, sink: ImportSink): void {
  const history = isJsonObject(document) ? arrayField(document, 'history') : undefined;
  if (history === undefined) throw new TranscriptFormatError('expected a SWE-agent trajectory with a history list');
  const reader = new OpenAiMessageReader();
  let awaitingObservation: string | undefined;
  let demonstrations = 0;
  let taskSeen = false;
  history.forEach((raw, index) => {
    sink.countRecord();
    if (!isJsonObject(raw) || typeof raw.role !== 'string') return sink.malformed(`history[${index}] is not a chat message`);
    const sourceId = `history-${index}`;
    if (raw.is_demo === true) {
      demonstrations++;
      return sink.skip('demonstration');
    }
    const callId = awaitingObservation;
    awaitingObservation = undefined;
    if (raw.role === 'user' && callId !== undefined) {
      const observation = renderContent(raw.content);
      sink.countPlaceholders(observation.placeholders);
      sink.add(sourceId, [{ role: 'tool', blocks: [toolResultBlock(callId, observation.text)] }]);
      return;
    }
    const action = textAction(raw);
    if (raw.role === 'assistant' && action !== undefined) {
      awaitingObservation = `${sourceId}:action`;
      sink.add(sourceId, [{ role: 'assistant', blocks: textActionBlocks(raw, action, awaitingObservation) }]);
      return;
    }
    const read = reader.read(raw, sourceId);
    const fromEnvironment = raw.role === 'user' && taskSeen;
    if (raw.role === 'user') taskSeen = true;
    addRead(fromEnvironment ? { ...read, parts: read.parts.map(injectedPart) } : read, sourceId, sink);
  });
  if (demonstrations > 0) {
    sink.warn(`${demonstrations} demonstration message(s) (is_demo) skipped: an example the model was shown, not this task`);
  }
}

/** The command of a text-action turn; undefined for function-calling turns, whose `action` repeats the call. */
function textAction(raw: JsonObject): string | undefined {
  if ((arrayField(raw, 'tool_calls') ?? []).length > 0) return undefined;
  const action = stringField(raw, 'action')?.replace(/\n+$/, '');
  return action === undefined || action.trim() === '' ? undefined : action;
}

function textActionBlocks(raw: JsonObject, command: string, callId: string): Block[] {
  const content = renderContent(raw.content).text;
  const block = fencedBlocks(content)
    .reverse()
    .find((candidate) => candidate.body.trim() === command.trim());
  const text = block === undefined ? content : withoutBlock(content, block);
  return [...(text === '' ? [] : [textBlock(text)]), toolCallBlock(callId, TEXT_ACTION_TOOL, { command })];
}
