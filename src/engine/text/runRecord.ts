/**
 * A host's record of one shell run, field by field (Gemini CLI's: `Command: …`, `Directory: …`, `Output: …`,
 * `Error: …`, `Exit Code: …`, `Signal: …`, `Background PIDs: …`, `Process Group PGID: …`). Only its output and error
 * fields hold what the program printed; the others echo the call or note the process, so no error is named by them.
 */

/** The record's first field: the command it ran, as the call gave it. */
const COMMAND_FIELD = /^Command: /;
/** A field of the record, at the start of a line. */
const FIELD = /^(Command|Directory|Output|Error|Exit Code|Signal|Background PIDs|Process Group PGID): ?(.*)$/;
/** The fields that hold what the program printed, and the one that holds how it ended. */
const PRINTED_FIELDS: ReadonlySet<string> = new Set(['Output', 'Error']);
const STATUS_FIELD = 'Exit Code';
/** The values a record writes for a field that holds nothing. */
const NOTHING = /^\((?:none|empty)\)$/;

/** Characters at a result's start looked at for the record's first field. @default 200 */
const RECORD_START_CHARS = 200;

/**
 * What the program printed, with the exit status, when `content` is such a record (it opens with its command and has
 * another field); any other content as it is.
 */
export function withoutRunRecord(content: string): string {
  if (!COMMAND_FIELD.test(content.slice(0, RECORD_START_CHARS).trimStart())) return content;
  return printedInRunRecord(content.split('\n'))?.join('\n') ?? content;
}

/** The lines of `lines` that the program printed, with the exit status, when they are such a record; else undefined. */
function printedInRunRecord(lines: readonly string[]): string[] | undefined {
  const first = lines.findIndex((l) => l.trim().length > 0);
  if (first < 0 || !COMMAND_FIELD.test(lines[first]) || !lines.some((l, i) => i > first && FIELD.test(l))) return undefined;
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
