/**
 * The recovery search of a live session, kept up to date as the session grows: each time it is
 * asked, it takes in only the messages archived and the files offloaded since the last time, reading
 * those messages from the archive a batch at a time. The recall check searches it after every checkpoint.
 */
import type { Store } from '../ports';
import { RecoveryIndex } from '../recovery/recoveryIndex';
import type { RecoverySource } from '../model/recoveryTypes';
import type { ArchivedMessages } from '../model/archivedMessages';
import type { OriginalsQuery, OriginalsSearch } from '../model/sessionOriginals';
import type { SessionPaths } from '../model/sessionPaths';
import type { SessionState } from '../model/sessionState';

/** What a checkpoint's facts may be found in: the archive and the offloaded files, never the summaries being checked. */
const ORIGINALS: readonly RecoverySource[] = ['archive', 'offloaded'];

export class SessionSearch implements OriginalsSearch {
  private index: RecoveryIndex | undefined;
  /** Takings-in run one after another: each reads the archive from where the last one stopped. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly sessionId: string,
    private readonly paths: SessionPaths,
  ) {}

  /** Takes in what is new, then answers searches among the session's originals (best hits first). */
  async originals(archived: ArchivedMessages, state: SessionState): Promise<OriginalsQuery> {
    const index = (this.index ??= RecoveryIndex.forSession(this.store, this.sessionId));
    const run = this.queue.then(() => this.takeIn(index, archived, state));
    this.queue = run.catch(() => undefined);
    await run;
    // The facts searched for are verbatim: whole terms find their passages without typo matching.
    return (query, top) => index.search(query, { top, sources: ORIGINALS, exactTerms: true });
  }

  private async takeIn(index: RecoveryIndex, archived: ArchivedMessages, state: SessionState): Promise<void> {
    const entries = await this.store.entries(this.paths.offloaded).catch(() => []);
    await index.takeIn(this.sessionId, {
      offloadedFolder: this.paths.offloaded,
      offloadedNames: entries.filter((e) => e.kind === 'file').map((e) => e.name),
      skippedEntries: entries.filter((e) => e.kind !== 'file'),
      origins: new Map(state.offloads.map((o) => [o.file.split('/').pop() ?? o.file, { callId: o.callId, toolName: o.toolName }])),
      archivePath: this.paths.archive,
      messages: archived,
      readMessages: (ids) => archived.byIds(ids),
      unreadableLines: [],
    });
  }
}
