/**
 * The workspace a replayed transcript would have left on disk, held in memory: tier 2 only drops
 * a write's content from the context when the file holds it, and a replay has no real files.
 */
import { type Message, persistableInput, type ToolCallBlock, toolCalls } from '../../engine/host/messages';
import type { WorkspaceFiles } from '../../engine/host/ports';

/** Keys an edit tool uses for the text it replaces (the counterpart of tier 2's fragment keys). */
const REPLACED_TEXT_KEYS = ['old_string', 'oldString', 'old_str', 'oldText', 'old_text'];

/**
 * Files as the transcript's own write and edit calls made them. A whole write replaces the file;
 * an edit replaces the text it names when the file holds it, and is appended otherwise (the file's
 * earlier content was never in the transcript, so the fragment is all that is known of it).
 */
export class TranscriptWorkspace implements WorkspaceFiles {
  private readonly files = new Map<string, string>();

  async readText(path: string): Promise<string | undefined> {
    return this.files.get(path);
  }

  /** Paths written so far. */
  get paths(): readonly string[] {
    return [...this.files.keys()];
  }

  /** Applies the writes of a message's tool calls, in order, as if the tools had run. */
  apply(message: Message): void {
    for (const call of toolCalls(message)) this.applyCall(call);
  }

  private applyCall(call: ToolCallBlock): void {
    const input = persistableInput(call);
    if (!input) return;
    if (input.whole) {
      this.files.set(input.path, input.value);
      return;
    }
    const current = this.files.get(input.path) ?? '';
    const replaced = replacedText(call);
    // A function replacement, so a `$&` in the new text is not read as a pattern.
    this.files.set(
      input.path,
      replaced && current.includes(replaced) ? current.replace(replaced, () => input.value) : `${current}\n${input.value}`,
    );
  }
}

function replacedText(call: ToolCallBlock): string | undefined {
  const key = REPLACED_TEXT_KEYS.find((k) => typeof call.input[k] === 'string' && (call.input[k] as string).length > 0);
  return key === undefined ? undefined : (call.input[key] as string);
}

/** The files a whole session would leave on disk: each path holds what its writes and edits made. */
export function filesWrittenBy(messages: readonly Message[]): TranscriptWorkspace {
  const workspace = new TranscriptWorkspace();
  for (const message of messages) workspace.apply(message);
  return workspace;
}
