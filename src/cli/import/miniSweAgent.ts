/**
 * mini-swe-agent trajectories (`trajectory_format: mini-swe-agent-1`): plain chat messages with no
 * structured calls. An assistant turn with exactly one ```` ```bash ```` block is a command that was
 * run; the user message after it is what came back (`<returncode>`/`<output>`, the too-long
 * `<warning>` variant, a timeout, or the final submission). A turn with zero or several blocks was
 * rejected unrun by mini-swe-agent, so it stays text and the format error after it stays a user
 * message. The first user message is the task; later ones mini-swe-agent wrote, so they are injected.
 *
 * Format 1.1 (mini-swe-agent 2) may instead use tool calls, as Chat Completions messages
 * (`tool_calls`, `tool` results) or as Responses API items (a `response` object's `output`,
 * `function_call_output` items); it ends with an `exit` message that only records how the run ended.
 */
import { type Block, injectedTextBlock, type Role, textBlock, toolCallBlock, toolResultBlock } from '../../engine/host/messages';
import { bashBlocks, withoutBlock } from './fencedBlocks';
import { TranscriptFormatError } from './importErrors';
import type { ImportSink } from './importSink';
import { arrayField, isJsonObject, stringField } from './jsonShape';
import { OpenAiMessageReader } from './openAiMessageReader';
import { readStructuredMessage, type StructuredReader } from './miniSweAgentStructured';
import { renderContent } from './renderContent';
import { toEpochMs } from './timestamps';

/** Tool name of every mini-swe-agent command: it has one tool, the shell. */
export const MINI_SWE_AGENT_TOOL = 'bash';

const ROLES: Readonly<Record<string, Role>> = { system: 'system', user: 'user', assistant: 'assistant' };

/** Adds the trajectory's messages as one session named after its `instance_id`. */
export function importMiniSweAgent(document: unknown, sink: ImportSink): void {
  const messages = isJsonObject(document) ? arrayField(document, 'messages') : undefined;
  if (messages === undefined) throw new TranscriptFormatError('expected a mini-swe-agent trajectory with a messages list');
  if (isJsonObject(document)) sink.beginSession(stringField(document, 'instance_id') ?? 'main');
  let awaitingOutput: string | undefined;
  let taskSeen = false;
  const structured: StructuredReader = { reader: new OpenAiMessageReader(), sink };
  messages.forEach((raw, index) => {
    sink.countRecord();
    if (isJsonObject(raw) && readStructuredMessage(raw, `messages-${index}`, structured, taskSeen)) {
      awaitingOutput = undefined;
      if (raw.role === 'user' || raw.role === 'tool') taskSeen = true;
      return;
    }
    const role = isJsonObject(raw) ? ROLES[stringField(raw, 'role') ?? ''] : undefined;
    if (!isJsonObject(raw) || role === undefined) return sink.malformed(`messages[${index}] is not a system, user or assistant message`);
    const sourceId = `messages-${index}`;
    const rendered = renderContent(raw.content);
    const text = rendered.text;
    const at = toEpochMs(raw.timestamp);
    const callId = awaitingOutput;
    awaitingOutput = undefined;
    if (role === 'user' && callId !== undefined) {
      sink.add(sourceId, [{ role: 'tool', blocks: [toolResultBlock(callId, text)] }], at);
      return;
    }
    const fromHarness = role === 'user' && taskSeen;
    if (role === 'user') taskSeen = true;
    // The harness's messages are injected whole; the author's keep a part of an unknown type injected.
    let blocks: Block[] = fromHarness ? (text === '' ? [] : [injectedTextBlock(text)]) : [...rendered.blocks];
    const commands = role === 'assistant' ? bashBlocks(text) : [];
    if (commands.length === 1) {
      awaitingOutput = `${sourceId}:bash`;
      const thought = withoutBlock(text, commands[0]);
      blocks = [
        ...(thought === '' ? [] : [textBlock(thought)]),
        toolCallBlock(awaitingOutput, MINI_SWE_AGENT_TOOL, { command: commands[0].body }),
      ];
    }
    if (sink.add(sourceId, [{ role, blocks }], at).length === 0) sink.skip('empty-message');
  });
}
