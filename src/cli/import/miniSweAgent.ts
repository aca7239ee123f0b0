/**
 * mini-swe-agent trajectories (`trajectory_format: mini-swe-agent-1`): plain chat messages with no
 * structured calls. An assistant turn with exactly one ```` ```bash ```` block is a command that was
 * run; the user message after it is what came back (`<returncode>`/`<output>`, the too-long
 * `<warning>` variant, a timeout, or the final submission). A turn with zero or several blocks was
 * rejected unrun by mini-swe-agent, so it stays text and the format error after it stays a user
 * message. The first user message is the task; later ones mini-swe-agent wrote, so they are injected.
 */
import { injectedTextBlock, textBlock, toolCallBlock, toolResultBlock, type Block, type Role } from '../../engine/types';
import { bashBlocks, withoutBlock } from './fencedBlocks';
import { TranscriptFormatError } from './importErrors';
import type { ImportSink } from './importSink';
import { arrayField, isJsonObject, stringField } from './jsonShape';
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
  messages.forEach((raw, index) => {
    sink.countRecord();
    const role = isJsonObject(raw) ? ROLES[stringField(raw, 'role') ?? ''] : undefined;
    if (!isJsonObject(raw) || role === undefined) return sink.malformed(`messages[${index}] is not a system, user or assistant message`);
    const sourceId = `messages-${index}`;
    const text = renderContent(raw.content).text;
    const at = toEpochMs(raw.timestamp);
    const callId = awaitingOutput;
    awaitingOutput = undefined;
    if (role === 'user' && callId !== undefined) {
      sink.add(sourceId, [{ role: 'tool', blocks: [toolResultBlock(callId, text)] }], at);
      return;
    }
    const fromHarness = role === 'user' && taskSeen;
    if (role === 'user') taskSeen = true;
    let blocks: Block[] = text === '' ? [] : [fromHarness ? injectedTextBlock(text) : textBlock(text)];
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
