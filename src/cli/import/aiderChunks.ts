/**
 * The pieces of Aider's chat history (`.aider.chat.history.md`) as Aider writes them: each run opens
 * with `# aider chat started at <time>`; every line the user typed is written as `#### <line>`; what
 * Aider itself printed (a file added, an edit applied, a command's output, a question and its answer)
 * starts with `> ` on its first line only and ends at the first line that ends with two spaces, the
 * Markdown line break Aider puts after it; everything else is the model's reply. Inside a reply's
 * code fence every line is the reply's.
 */

/** What a piece of the history is. */
export type AiderChunkKind = 'run' | 'user' | 'notice' | 'reply';

/** One piece: its kind, its text and its first and last lines (1-based). */
export interface AiderChunk {
  readonly kind: AiderChunkKind;
  readonly text: string;
  readonly line: number;
  readonly lastLine: number;
}

/** How a run starts: Aider's heading with the time it started. */
const RUN_HEADING = /^# aider chat started at (.+?)\s*$/;
const USER_LINE = /^####( |$)/;
const NOTICE_LINE = /^>( |$)/;
const FENCE = /^\s*(```|~~~)/;

/** True for a text that opens with Aider's run heading. */
export function isAiderHistory(text: string): boolean {
  const first = text.split(/\r?\n/).find((line) => line.trim() !== '');
  return first !== undefined && RUN_HEADING.test(first);
}

/** The time a run heading gives, as written (local time of the machine, zone unknown). */
export function runStartedAt(chunk: AiderChunk): string {
  return RUN_HEADING.exec(chunk.text)?.[1] ?? '';
}

/** Splits the history into its pieces, in order; blank lines between pieces belong to none. */
export function aiderChunks(text: string): AiderChunk[] {
  const lines = text.split(/\r?\n/);
  const chunks: AiderChunk[] = [];
  let reply: { start: number; lines: string[]; fenced: boolean } | undefined;
  const closeReply = () => {
    const body = reply?.lines.join('\n').trim() ?? '';
    if (reply !== undefined && body !== '') {
      chunks.push({ kind: 'reply', text: body, line: reply.start + 1, lastLine: reply.start + reply.lines.length });
    }
    reply = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (reply?.fenced === true) {
      reply.lines.push(line);
      if (FENCE.test(line)) reply.fenced = false;
      continue;
    }
    if (RUN_HEADING.test(line)) {
      closeReply();
      chunks.push({ kind: 'run', text: line.trim(), line: i + 1, lastLine: i + 1 });
    } else if (USER_LINE.test(line)) {
      closeReply();
      chunks.push({ kind: 'user', text: line.replace(USER_LINE, '').replace(/\s+$/, ''), line: i + 1, lastLine: i + 1 });
    } else if (NOTICE_LINE.test(line)) {
      closeReply();
      const end = noticeEnd(lines, i);
      const body = [line.replace(NOTICE_LINE, ''), ...lines.slice(i + 1, end + 1)].join('\n').replace(/\s+$/, '');
      chunks.push({ kind: 'notice', text: body, line: i + 1, lastLine: end + 1 });
      i = end;
    } else if (reply !== undefined || line.trim() !== '') {
      reply ??= { start: i, lines: [], fenced: false };
      reply.lines.push(line);
      if (FENCE.test(line)) reply.fenced = true;
    }
  }
  closeReply();
  return joinRuns(chunks);
}

/** The last line of the notice that starts at `start`: the first that ends with Aider's line break, or the line before the next piece. */
function noticeEnd(lines: readonly string[], start: number): number {
  for (let i = start; i < lines.length; i++) {
    if (lines[i].endsWith('  ')) return i;
    const next = lines[i + 1];
    if (next === undefined || RUN_HEADING.test(next) || USER_LINE.test(next) || NOTICE_LINE.test(next)) return i;
  }
  return lines.length - 1;
}

/** Lines of user input, or notices, that follow each other with no blank line between are one piece. */
function joinRuns(chunks: readonly AiderChunk[]): AiderChunk[] {
  const joined: AiderChunk[] = [];
  for (const chunk of chunks) {
    const last = joined[joined.length - 1];
    const adjoins = last !== undefined && last.kind === chunk.kind && last.lastLine + 1 === chunk.line;
    if (adjoins && (chunk.kind === 'user' || chunk.kind === 'notice')) {
      joined[joined.length - 1] = { ...last, text: `${last.text}\n${chunk.text}`, lastLine: chunk.lastLine };
    } else joined.push(chunk);
  }
  return joined;
}
