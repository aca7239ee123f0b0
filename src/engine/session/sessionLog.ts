/**
 * The session log (`session-log.md` in the session's folder): one line per thing ctx did, e.g.
 * "Summarized 8 messages → 1 summary (saved ~1,200 tokens)". A failure to write it is logged and
 * never stops the conversation. Strings that look like credentials are masked, as in everything ctx shows.
 */
import type { CompressionEvent } from '../model/compressionEvent';
import { errorMessage } from '../errors';
import type { Logger, Store } from '../ports';
import type { SessionPaths } from '../model/sessionPaths';
import { maskSecrets } from '../text/secrets';

/** The session log's file name, in the session's folder. */
export const SESSION_LOG_FILE = 'session-log.md';

export async function appendSessionLog(
  store: Store,
  paths: SessionPaths,
  events: readonly CompressionEvent[],
  logger: Logger,
): Promise<void> {
  if (events.length === 0) return;
  try {
    await store.append(
      `${paths.folder}/${SESSION_LOG_FILE}`,
      events.map((e) => `- ${new Date(e.at).toISOString()} · ${e.name ?? e.kind} · ${maskSecrets(e.detail)}`),
    );
  } catch (e) {
    logger.warn(`The session log could not be written: ${errorMessage(e)}`);
  }
}
