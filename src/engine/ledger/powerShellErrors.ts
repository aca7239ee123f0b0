/**
 * PowerShell's error record, as it prints one in any language: the message (`Get-Item : Access to the path 'report.json' is denied.`,
 * wrapped over lines as the console's width cut it), where it happened (`At line:1 char:1`, `Au caractère Ligne:1 : 1`),
 * the line of code and its underline, each after a `+`, then the record's fields, whose names PowerShell never
 * translates (`+ CategoryInfo : ObjectNotFound: …`, `+ FullyQualifiedErrorId : CommandNotFoundException`). Told by
 * that shape, so the message reads as plainly as any error, whatever language and words it has. PowerShell 7's concise
 * view prints the same record as a frame (`Line |`, the numbered line of code, its `~~~~` underline), the message on
 * the frame's next line after its bar.
 */

/** The field that ends every error record. */
const RECORD_END = /^\s*\+\s*FullyQualifiedErrorId\s*:/;
/** A line of the record after its place: the code, its underline, a field. */
const RECORD_LINE = /^\s*\+/;
/** The message's first line: the command that failed, a colon, the message (`Get-Item : Access to the path … is denied.`). */
const COMMAND_AND_MESSAGE = /^\S[^:]{0,80}\s:\s\S/;
/** Lines of a wrapped message looked back over for its first line. @default 3 */
const MESSAGE_LINES = 3;

/** The concise view's numbered line of code (`   2 |  grep -n …`), its underline (`     |  ~~~~`) and message (`     | The term …`). */
const CONCISE_CODE = /^\s*\d+\s*\|/;
const CONCISE_UNDERLINE = /^\s*\|\s*~+\s*$/;
const CONCISE_MESSAGE = /^\s*\|\s+(?=\S)/;

/** The message of a line {@link powerShellErrorMessages} found, without the concise view's bar before it. */
export function powerShellMessage(line: string): string {
  return line.replace(CONCISE_MESSAGE, '');
}

/** The places of the lines that open the messages of PowerShell's error records in `lines`. */
export function powerShellErrorMessages(lines: readonly string[]): number[] {
  const found: number[] = [];
  lines.forEach((line, at) => {
    if (CONCISE_UNDERLINE.test(line) && at > 0 && CONCISE_CODE.test(lines[at - 1]) && CONCISE_MESSAGE.test(lines[at + 1] ?? '')) {
      found.push(at + 1);
      return;
    }
    if (!RECORD_END.test(line)) return;
    let first = at;
    while (first > 0 && RECORD_LINE.test(lines[first - 1])) first--;
    // Above the `+` lines: where it happened, then the message, wrapped.
    const place = first - 1;
    if (place < 1) return;
    let message = place - 1;
    for (let back = place - 1; back >= Math.max(0, place - MESSAGE_LINES); back--) {
      if (lines[back].trim().length === 0) break;
      if (COMMAND_AND_MESSAGE.test(lines[back])) {
        message = back;
        break;
      }
    }
    if (lines[message].trim().length > 0) found.push(message);
  });
  return found;
}
