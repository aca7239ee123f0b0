/**
 * When the Context tree asks VS Code to fetch it again.
 *
 * VS Code answers a request for an item's children from the items of its last fetch. A refresh that lands
 * while the view is fetching an expanded item's children drops them: the item shows nothing under it until
 * the next refresh. A session changes many times in a turn, mostly in ways the tree does not show (its
 * level, its activity). So the tree refreshes:
 * - only when what it shows differs from what VS Code last fetched (`shownText`, compared as text);
 * - never while hidden: a hidden view that changed refreshes once when it is shown again, and a view shown
 *   for the first time fetches everything itself;
 * - at most once per `quietMs`, after the change that asked for it.
 */

/** What the gate needs from the tree. */
export interface TreeRefreshPorts {
  /** The tree as it would be shown now, as text. */
  shownText(): Promise<string>;
  /** Asks VS Code to fetch the whole tree again. */
  refresh(): void;
  /** @default 300 */
  readonly quietMs?: number;
}

const DEFAULT_QUIET_MS = 300;

export class TreeRefreshGate {
  private visible: boolean;
  private fetchedOnce = false;
  private changedWhileHidden = false;
  /** What VS Code last fetched; undefined when unknown (the next settle refreshes). */
  private shown: string | undefined;
  /** Counts changes, so that a fetch overtaken by a change is not taken as what is shown. */
  private version = 0;
  /** The version whose text the last refresh was asked with: the fetch that answers it needs no text of its own. */
  private refreshedAt: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private settling: Promise<void> = Promise.resolve();
  private disposed = false;

  constructor(
    private readonly ports: TreeRefreshPorts,
    visible: boolean,
  ) {
    this.visible = visible;
  }

  /** Something the tree may show has changed. */
  changed(): void {
    this.version++;
    if (!this.visible) {
      if (this.fetchedOnce) this.changedWhileHidden = true;
      return;
    }
    this.schedule();
  }

  /** The view was shown or hidden. */
  visibilityChanged(visible: boolean): void {
    this.visible = visible;
    if (visible && this.changedWhileHidden) {
      this.changedWhileHidden = false;
      this.schedule();
    }
  }

  /** VS Code fetched the tree's roots: from now on it shows what the tree holds now. */
  rootsFetched(): void {
    this.fetchedOnce = true;
    const answersRefresh = this.refreshedAt === this.version;
    this.refreshedAt = undefined;
    if (answersRefresh) return;
    const version = this.version;
    void this.ports.shownText().then(
      (text) => {
        this.shown = this.version === version ? text : undefined;
      },
      () => {
        this.shown = undefined;
      },
    );
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer || this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.settling = this.settling.then(() => this.settle());
    }, this.ports.quietMs ?? DEFAULT_QUIET_MS);
  }

  private async settle(): Promise<void> {
    if (this.disposed) return;
    if (!this.visible) {
      this.changedWhileHidden = this.fetchedOnce;
      return;
    }
    const version = this.version;
    const text = await this.ports.shownText().catch(() => undefined);
    if (text !== undefined && text === this.shown) return;
    const current = text !== undefined && this.version === version;
    this.shown = current ? text : undefined;
    this.refreshedAt = current ? version : undefined;
    this.ports.refresh();
  }
}
