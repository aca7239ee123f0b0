/**
 * Errors the command line reports to the person who ran it, in plain words and with exit status 1.
 * Anything else that escapes a command is a bug and is reported as one, with exit status 2.
 */

/** Exit status for success. */
export const EXIT_OK = 0;
/** Exit status for bad input: a wrong flag, a missing file, a text that is no transcript. */
export const EXIT_BAD_INPUT = 1;
/** Exit status for an unexpected failure inside ctx. */
export const EXIT_INTERNAL_ERROR = 2;

/** The input was wrong; the message says what to change. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

/** The command line itself was wrong (a flag, a command, a missing argument): usage is worth showing. */
export class UsageError extends InputError {}
