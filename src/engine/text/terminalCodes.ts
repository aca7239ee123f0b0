/**
 * Terminal control sequences a program prints for a terminal (colours, bold, cursor moves, window titles): they
 * style text, they are not text, and a model reads each as tokens. Taken out of every line ctx writes itself
 * (a fact, an outcome, a summary line); a tool's own result, live, keeps them as it was printed.
 */

/** An ESC-introduced sequence: CSI (`ESC [ 1 ; 31 m`), OSC up to its terminator (`ESC ] 0 ; title BEL`), or a two-character one. */
// eslint-disable-next-line no-control-regex -- the sequences are made of control characters
const TERMINAL_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g;

/**
 * A colour or style sequence with its ESC written in caret notation (`^[[1;91m`), as `cat -v`, a CI service's log and
 * some hosts print a terminal's output: the same styling, spelled out in text.
 */
const CARET_SEQUENCE = /\^\[\[[0-9;]*m/g;

/** `text` without terminal control sequences; the same string when it holds none. */
export function withoutTerminalCodes(text: string): string {
  const plain = text.includes('\u001b') ? text.replace(TERMINAL_SEQUENCE, '') : text;
  return plain.includes('^[[') ? plain.replace(CARET_SEQUENCE, '') : plain;
}
