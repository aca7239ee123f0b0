/**
 * A program that died of an exception it did not catch, told by how its output ends: the runtime's own report of the
 * exception is the last thing printed. A host that states no exit status (SWE-agent's observations, a tool that
 * returns the output alone) still shows the run failed:
 * - Python ends with its traceback's last line, the exception (`ValueError: invalid literal for int()…`), after the
 *   `File "…", line N` lines that say where it was raised (a syntax error has no `Traceback` header, but those);
 * - the JVM prints `Exception in thread "main" java.lang.…` and its `at …` frames to the end;
 * - Node prints the error and its `at …` frames to the end, then perhaps its version line (`Node.js v20.11.1`).
 * A test runner or a log that quotes a stack in the middle of its output and goes on is not one.
 */

/** Lines looked at from the end of an output. @default 40 */
const TAIL_LINES = 40;
/** Characters read from the end of an output, however long it is. @default 6000 */
const TAIL_CHARS = 6000;

/** A frame of Python's traceback, where it says an exception was raised (`  File "x.py", line 3, in f`): the exception follows the last one. */
export const TRACEBACK_FRAME = /^\s+File ".*", line \d+/;
/** A traceback's last line: the exception's qualified name, then its message if any. */
const PYTHON_EXCEPTION = /^[A-Za-z_][\w.]*(?:Error|Exception|Interrupt)(?::\s.*)?$/;
/** An exception's line: a (dotted) name, then a colon and its message or nothing (`KeyError: 'x'`, `StopIteration`). */
const EXCEPTION_LINE = /^[A-Za-z_][\w.]*(?::\s|:?$)/;
/** A frame of a JVM or Node stack: `\tat report.Main.main(Main.java:21)`, `    at Object.openSync (node:fs:596:3)`. */
const STACK_FRAME = /^\s+at \S.*(?:\(.*\)|:\d+:\d+)$/;
/** What a JVM stack trace ends with when frames are left out: `... 12 more`. */
const MORE_FRAMES = /^\s*\.\.\. \d+ more$/;
/** The line a stack is of: the JVM's `Exception in thread "main" …` or `Caused by: …`, a thrown error's `TypeError: …`. */
const THROWN = /^(?:Exception in thread "[^"]*" [\w.$]+|(?:Caused by: |Uncaught )?[A-Z]?[\w.$]*(?:Error|Exception)\b(?: \[[\w-]+\])?:)/;
/** Node's version line after an uncaught error. */
const NODE_VERSION = /^Node\.js v\d+(?:\.\d+)*$/;

/**
 * Where the Python tracebacks of `lines` end: each line that is not indented, right after the indented lines of a
 * frame, and reads as an exception's line whatever the exception is named (`StopIteration`,
 * `shop.settings.NotConfigured: …`). Only the end of a long traceback may have been read: its frames
 * are enough to recognise it. `clean` takes off what a host put around a line before it is read.
 */
export function tracebackEnds(lines: readonly string[], clean: (line: string) => string = (line) => line.trim()): number[] {
  const ends: number[] = [];
  let inFrames = false;
  lines.forEach((line, at) => {
    if (line.trim().length === 0) return;
    if (TRACEBACK_FRAME.test(line)) inFrames = true;
    else if (!/^\s/.test(line)) {
      if (inFrames && EXCEPTION_LINE.test(clean(line))) ends.push(at);
      inFrames = false;
    }
  });
  return ends;
}

/** True when `content` ends as the output of a program that an uncaught exception stopped (see the header). */
export function endsInUncaughtException(content: string): boolean {
  const lines = content
    .slice(-TAIL_CHARS)
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim().length > 0)
    .slice(-TAIL_LINES);
  while (lines.length > 0 && NODE_VERSION.test(lines[lines.length - 1].trim())) lines.pop();
  const last = lines.at(-1);
  if (last === undefined) return false;
  if (PYTHON_EXCEPTION.test(last) && lines.some((l) => TRACEBACK_FRAME.test(l))) return true;
  if (tracebackEnds(lines).at(-1) === lines.length - 1) return true;
  // A stack that runs to the end: frames (and a `... n more`) back to the line of what was thrown.
  let at = lines.length - 1;
  while (at >= 0 && (STACK_FRAME.test(lines[at]) || MORE_FRAMES.test(lines[at]))) at--;
  if (at === lines.length - 1 || at < 0) return false;
  // The thrown line may run over a few lines of message before its first frame.
  for (let i = at; i >= Math.max(0, at - 3); i--) if (THROWN.test(lines[i].trim())) return true;
  return false;
}
