/**
 * The line number a reader or a tool puts before each line of a file it shows: Claude Code's `   12→`, `cat -n`'s
 * `    12\t`, `12: ` and `12 | `. The one space after a colon or a bar is the reader's, not the file's: taken with the
 * number, the code keeps its own indentation.
 */
export const READER_LINE_NUMBER = /^\s*(\d+)(?:→|\t|: ?|\s?\| ?)/;
