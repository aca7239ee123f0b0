/**
 * A tool result the caller already wrote to a file. Copilot Chat's agent (0.67, `largeToolResultsToDisk`, on by
 * default above 8 KB) sends the model, in place of the result:
 *
 *   Large tool result (88KB) written to file. Use the read_file tool to access the content at: <path>
 *
 * optionally followed by a blank line and `Data schema found at: <path>` for JSON. The session keeps the note as
 * sent; the file's content goes into the session's offloaded folder, so recovery search finds it and
 * `ctx_read_offloaded` reads it, as for a result ctx offloaded itself. The note is only the caller's word: the file is
 * read only for a result of a call the session holds, the host reads only the file the caller wrote for that call
 * (`CallerFiles`), and what is kept is masked (`maskSecrets`), since search returns it to any later request.
 */
import { fileTimestamp, safeFileNamePart } from '../text/sanitize';
import { maskSecrets } from '../text/secrets';
import { shortHash } from '../text/shortHash';
import { type OffloadTarget, writeNewFile } from './offload';

/**
 * Copilot's note, as its tool-result renderer writes it, and nothing else: the path runs to the end of its line, and
 * only the schema line may follow. A result that merely starts with such a note (a file, a page, a command's output
 * that says it) is not one.
 */
const WRITTEN_RESULT_NOTE =
  /^Large tool result \((\d+)KB\) written to file\. Use the read_file tool to access the content at: ([^\n]+)(?:\n\nData schema found at: [^\n]+)?\n?$/;

/** What the note says: the file and its size as the caller gave it. */
export interface WrittenResultNote {
  readonly path: string;
  readonly kilobytes: number;
}

/** The note's file, or undefined when the result is not such a note. */
export function writtenResultNote(content: string): WrittenResultNote | undefined {
  const match = WRITTEN_RESULT_NOTE.exec(content);
  return match ? { path: match[2].trim(), kilobytes: Number(match[1]) } : undefined;
}

/**
 * Keeps the content of a file the caller wrote as an offloaded file of the session; returns its store path. The name
 * says where it came from (`…_<tool>_<call>_<hash>.caller.txt`); the text is kept as read, credentials masked.
 */
export async function keepCallerWrittenResult(
  text: string,
  toolName: string,
  callId: string,
  at: number,
  target: OffloadTarget,
): Promise<string> {
  const hash = shortHash(`caller\u0000${toolName}\u0000${callId}`);
  const name = (suffix: number) =>
    `${fileTimestamp(at)}_${safeFileNamePart(toolName, 'tool')}_${safeFileNamePart(callId, 'call', 40)}_${hash}${suffix > 1 ? `-${suffix}` : ''}.caller.txt`;
  return writeNewFile(target, name, maskSecrets(text));
}
