/**
 * What a host frames a tool's result in: a record of one shell run, field by field (Gemini CLI's: `Command: …`,
 * `Directory: …`, `Output: …`, `Error: …`, `Exit Code: …`, `Signal: …`, `Background PIDs: …`, `Process Group PGID: …`),
 * as a sentence and the output under it (Cline's and Roo Code's: `Command executed in terminal within working directory
 * '…'. Exit code: 1`, `Output:`), or as a status line above the output (Codex's `Process exited with code 64`); and the
 * label Cline and Roo Code put above every result (`[execute_command for 'npm test'] Result:`), VS Code's note above the
 * output of a command it changed before it ran (`Note: The tool simplified the command to …`), the block of notes
 * OpenCode writes under a run it stopped (`<shell_metadata>`), and the state SWE-agent writes under every observation
 * (`(Open file: …)`, `(Current directory: …)`, `(Interactive session: …)`, its prompt `bash-$`). Only the output and
 * error fields hold what the program printed; the rest echo the call or note the process, so no error is named by them
 * but a failed run's status, when the program printed nothing else.
 */
import { OFFLOAD_REFERENCE_LINE } from './offloadReference';

/** The record's first field: the command it ran, as the call gave it, or what it printed. */
const COMMAND_FIELD = /^Command: /;
const OUTPUT_FIELD = /^Output: ?/;
/** A field of the record that no program's output holds: how the process ended and what the host knows of it. */
const HOST_FIELD = /^(?:Exit Code|Signal|Background PIDs|Process Group PGID): ?\S/;
/** A field of the record, at the start of a line. */
const FIELD = /^(Command|Directory|Output|Error|Exit Code|Signal|Background PIDs|Process Group PGID): ?(.*)$/;
/** The fields that hold what the program printed, and the one that holds how it ended. */
const PRINTED_FIELDS: ReadonlySet<string> = new Set(['Output', 'Error']);
const STATUS_FIELD = 'Exit Code';
/** The values a record writes for a field that holds nothing. */
const NOTHING = /^\((?:none|empty)\)$/;

/** Characters at a result's start looked at for the record's first field. @default 200 */
const RECORD_START_CHARS = 200;

/** The label Cline, Roo Code and Kilo Code put above a tool's result, on a line of its own: `[read_file for 'a.ts'] Result:`. */
const RESULT_LABEL = /^\s*\[[\w-]+(?: for [^\n]*)?\] Result:[ \t]*(?:\n|$)/;
/** The sentence such a host opens a shell run's result with, the run's status in it or on the lines up to `Output:`. */
const EXECUTED_LINE = /^Command executed\b/;
/** The line after which the program's output follows. */
const OUTPUT_LINE = /^Output:[ \t]*$/;
/** The exit status within the sentence or the lines after it; the importer reads a result's failure by it too. */
export const EXIT_STATUS = /\bExit code:? (-?\d+)\b/i;
/**
 * The status line Codex's shell tools put above a command's output (`Process exited with code 64`, `Exit code: 0`,
 * `Process running with session ID 4412`, a script's `Script completed`): how the run ended, not what it printed.
 */
const STATUS_ABOVE =
  /^(?:Process exited with code (-?\d+)|Exit code: (-?\d+)|Process running with session ID \d+|Script completed)[ \t]*(?:\n|$)/;
const LEADING_SPACE = /^\s*/;
const OPENS_WITH_BRACKET = /^\s*\[/;
/** A line of the state SWE-agent writes under an observation: the file open in its editor, the directory, the session, the prompt. */
export const STATE_LINE = /^(?:\((?:Open file|Current directory|Interactive session):.*\)|bash-\$)$/;
/** How the last line of such a state ends, looked at before any line is. */
const STATE_END = /(?:\)|bash-\$)\s*$/;
/** How VS Code's terminal tool opens its note that the command run is not the one asked for: it or the user changed it. */
const EDITED_COMMAND_NOTE = /^\s*Note: The (?:tool simplified|user manually edited) the command to `/;
/** Characters at a result's start looked at for that note. @default 80 */
const EDITED_COMMAND_NOTE_OPENING_CHARS = 80;
/** How that note ends, the output under it (`…, and this is the output…`, `… (terminal ID=…). This is the output…`). */
const EDITED_COMMAND_NOTE_END = 'is the output of running that command instead:';
/** The block of notes OpenCode's shell tool writes under a run it stopped, and its placeholder for an empty output. */
const NOTES_OPEN = '<shell_metadata>';
const NOTES_CLOSE = '</shell_metadata>';
const NO_OUTPUT = '(no output)';
/** Lines before `Output:` read as the sentence's: the status may stand on a line of its own. @default 4 */
const EXECUTED_HEAD_LINES = 4;

/**
 * What the program printed, with a failed run's exit status, when `content` is such a record (see
 * {@link opensRunRecord}), opens with the sentence and `Output:`, or with a status line above the output (see
 * {@link STATUS_ABOVE}); without the label above it and the state under it. Any other content as it is. ctx's own note
 * that the result went to a file stays above it.
 */
export function withoutHostFrame(content: string): string {
  return withoutStateBelow(withNotesBelowAsLines(framedAbove(content)));
}

/**
 * `content` with the block of notes OpenCode's shell tool puts under a run it stopped (`<shell_metadata>`, `User aborted
 * the command`, `</shell_metadata>`) as those notes' lines after what the program printed, as a failed run's status is
 * kept, and without its placeholder for an output that held nothing (`(no output)`).
 */
function withNotesBelowAsLines(content: string): string {
  if (!content.endsWith(NOTES_CLOSE) && !content.trimEnd().endsWith(NOTES_CLOSE)) return content;
  const open = content.lastIndexOf(NOTES_OPEN);
  if (open < 0) return content;
  const notes = content.slice(open + NOTES_OPEN.length, content.lastIndexOf(NOTES_CLOSE)).trim();
  const printed = content.slice(0, open).trim();
  return printed === NO_OUTPUT || printed.length === 0 ? notes : `${printed}\n${notes}`;
}

/** `content` without the state lines a host writes under it (see the header). */
function withoutStateBelow(content: string): string {
  if (!STATE_END.test(content.slice(-LAST_LINE_CHARS))) return content;
  let end = content.length;
  for (;;) {
    const trimmed = content.slice(0, end).trimEnd();
    const at = trimmed.lastIndexOf('\n');
    if (!STATE_LINE.test(trimmed.slice(at + 1).trim())) return end === content.length ? content : content.slice(0, end);
    end = Math.max(at, 0);
  }
}

/** Characters at the end of a result looked at for a state line. @default 400 */
const LAST_LINE_CHARS = 400;

function framedAbove(content: string): string {
  // Only a note can open with a bracket: an output of one long line is not copied to be looked at.
  const firstEnd = OPENS_WITH_BRACKET.test(content) ? content.indexOf('\n') : -1;
  const noted = firstEnd > 0 && OFFLOAD_REFERENCE_LINE.test(content.slice(0, firstEnd).trim());
  if (!noted) return unframed(content);
  const rest = content.slice(firstEnd + 1);
  const bare = unframed(rest);
  return bare === rest ? content : content.slice(0, firstEnd + 1) + bare;
}

function unframed(content: string): string {
  const unlabelled = withoutEditedCommandNote(content).replace(RESULT_LABEL, '');
  const start = unlabelled.slice(0, RECORD_START_CHARS).trimStart();
  if (EXECUTED_LINE.test(start)) return printedUnderSentence(unlabelled.split('\n'))?.join('\n') ?? unlabelled;
  if (STATUS_ABOVE.test(start)) return printedUnderStatus(unlabelled, LEADING_SPACE.exec(unlabelled)?.[0].length ?? 0);
  if (!COMMAND_FIELD.test(start) && !OUTPUT_FIELD.test(start)) return unlabelled;
  return printedInRunRecord(unlabelled.split('\n'))?.join('\n') ?? unlabelled;
}

/**
 * `content` without the note VS Code's terminal tool puts above the output of a command that it or the user changed
 * before it ran (`Note: The tool simplified the command to \`npm test\`, and this is the output of running that command
 * instead:`); the command in it may run over several lines (a heredoc).
 */
function withoutEditedCommandNote(content: string): string {
  if (!EDITED_COMMAND_NOTE.test(content.slice(0, EDITED_COMMAND_NOTE_OPENING_CHARS))) return content;
  const end = content.indexOf(EDITED_COMMAND_NOTE_END);
  if (end < 0) return content;
  const after = end + EDITED_COMMAND_NOTE_END.length;
  return content.slice(content[after] === '\n' ? after + 1 : after);
}

/**
 * What follows the status line a host puts above a command's output, and a failed run's status line as written, on a
 * line of its own after it, as a field record has it. A note under the status that the host cut the output (`Total
 * output lines: 1088`) stays: it says the output did not reach the model whole.
 */
function printedUnderStatus(content: string, from: number): string {
  const firstEnd = content.indexOf('\n', from);
  const statusLine = (firstEnd < 0 ? content.slice(from) : content.slice(from, firstEnd)).trim();
  const status = STATUS_ABOVE.exec(statusLine);
  const printed = (firstEnd < 0 ? '' : content.slice(firstEnd + 1)).replace(/^\n+/, '');
  const code = status?.[1] ?? status?.[2];
  if (code === undefined || Number(code) === 0) return printed;
  return printed.length === 0 ? statusLine : `${printed.replace(/\n+$/, '')}\n${statusLine}`;
}

/**
 * The lines after `Output:` of a record that opens with the sentence that the command ran, and a failed run's exit
 * status as a line of its own after them, as a field record has it; undefined when no `Output:` line follows the sentence.
 */
function printedUnderSentence(lines: readonly string[]): string[] | undefined {
  const first = lines.findIndex((l) => l.trim().length > 0);
  const head = lines.slice(first, first + EXECUTED_HEAD_LINES + 1);
  const output = head.findIndex((l) => OUTPUT_LINE.test(l));
  if (output < 0) return undefined;
  const status = head
    .slice(0, output)
    .map((l) => EXIT_STATUS.exec(l))
    .find((m) => m !== null);
  const printed = lines.slice(first + output + 1);
  return status && Number(status[1]) !== 0 ? [...printed, `Exit code: ${status[1]}`] : printed;
}

/**
 * True when the record opens at `first`: with its command and another field after it, or, as a later version writes
 * it, with its output and, on a later line, a field only a host writes (`Process Group PGID: 4120`, `Exit Code: 1`):
 * a program may print a line that opens with `Output:` itself.
 */
function opensRunRecord(lines: readonly string[], first: number): boolean {
  if (COMMAND_FIELD.test(lines[first])) return lines.some((l, i) => i > first && FIELD.test(l));
  if (!OUTPUT_FIELD.test(lines[first])) return false;
  return lines.some((l, i) => i > first && HOST_FIELD.test(l));
}

/** The lines of `lines` that the program printed, with the exit status, when they are such a record; else undefined. */
function printedInRunRecord(lines: readonly string[]): string[] | undefined {
  const first = lines.findIndex((l) => l.trim().length > 0);
  if (first < 0 || !opensRunRecord(lines, first)) return undefined;
  const printed: string[] = [];
  let field = '';
  for (const line of lines.slice(first)) {
    const match = FIELD.exec(line);
    if (match) {
      field = match[1];
      const value = match[2].trim();
      if (PRINTED_FIELDS.has(field) && value.length > 0 && !NOTHING.test(value)) printed.push(value);
      if (field === STATUS_FIELD) printed.push(line);
      continue;
    }
    // A value over several lines goes on under its field.
    if (PRINTED_FIELDS.has(field)) printed.push(line);
  }
  return printed;
}
