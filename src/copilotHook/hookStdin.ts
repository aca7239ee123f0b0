/**
 * Reading the hook input from stdin with limits of the hook's own: Copilot gives the hook a time limit and kills it
 * past that, so a stdin that never ends (a caller that keeps it open) must not hold the hook until then. Past either
 * limit the hook stops reading and says why, and Copilot's compaction goes on.
 */
import { MAX_HOOK_INPUT_CHARS, HookInputError } from './hookInput';

/** Milliseconds the hook waits for its input to end: Copilot writes a small object and closes stdin at once. */
export const HOOK_INPUT_TIMEOUT_MS = 5_000;

/** The input's text; throws `HookInputError` when it does not end within `timeoutMs`. */
export async function readHookInput(
  input: NodeJS.ReadableStream,
  timeoutMs = HOOK_INPUT_TIMEOUT_MS,
  maxChars = MAX_HOOK_INPUT_CHARS,
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let text = '';
    const finish = (result: () => void): void => {
      clearTimeout(timer);
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      input.removeListener('error', onError);
      input.pause();
      result();
    };
    const onData = (chunk: string | Buffer): void => {
      text += String(chunk);
      // Past the limit the input is not Copilot's: stop reading, the parse says why.
      if (text.length > maxChars) finish(() => resolve(text));
    };
    const onEnd = (): void => finish(() => resolve(text));
    const onError = (e: Error): void => finish(() => reject(e));
    const timer = setTimeout(
      () => finish(() => reject(new HookInputError(`the hook input did not end within ${timeoutMs / 1000} seconds`))),
      timeoutMs,
    );
    input.on('data', onData);
    input.once('end', onEnd);
    input.once('error', onError);
  });
}
