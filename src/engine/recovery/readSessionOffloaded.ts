/**
 * `ctx_read_offloaded` for a conversation: the session comes from the conversation, never from
 * the path the model passes. A path may name the current session or one it was started fresh
 * from (whose offloaded files it carries over); a path into any other session is refused.
 */
import type { Store } from '../ports';
import { readOffloaded, type OffloadedRange, type ReadOffloadedOptions } from './readOffloaded';
import { NoCurrentSessionError, OffloadedFileNotFoundError, OffloadedPathRefusedError } from './recoveryErrors';

/** The session a path to an offloaded file names (`…sessions/<id>/offloaded/<name>`), if it names one. */
const SESSION_IN_PATH = /(?:^|[\\/])sessions[\\/]([^\\/]+)[\\/]offloaded[\\/][^\\/]+$/;

/**
 * Reads an offloaded file of the conversation's sessions: `sessionIds` is the current session
 * first, then the sessions it was started fresh from. A bare name is looked up in that order.
 * Throws `OffloadedPathRefusedError` (reason `otherSession`) for a path into any other session,
 * and the errors of `readOffloaded` otherwise.
 */
export async function readSessionOffloaded(
  store: Store,
  sessionIds: readonly string[],
  nameOrPath: string,
  options: ReadOffloadedOptions = {},
): Promise<OffloadedRange> {
  const [current] = sessionIds;
  if (current === undefined) throw new NoCurrentSessionError();
  const named = SESSION_IN_PATH.exec(nameOrPath.trim())?.[1];
  if (named !== undefined) {
    if (!sessionIds.includes(named)) throw new OffloadedPathRefusedError(nameOrPath, current, 'otherSession');
    return readOffloaded(store, named, nameOrPath, options);
  }
  let notFound: OffloadedFileNotFoundError | undefined;
  for (const id of sessionIds) {
    try {
      return await readOffloaded(store, id, nameOrPath, options);
    } catch (e) {
      if (!(e instanceof OffloadedFileNotFoundError)) throw e;
      // The current session's list of files is the one worth showing.
      notFound ??= e;
    }
  }
  throw notFound ?? new OffloadedFileNotFoundError(nameOrPath.trim(), current, []);
}
