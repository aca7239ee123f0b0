/**
 * The archived messages the recovery index holds, as columns by document number: a long session's archive costs
 * a few integers a message and its id (the archive's own string), not an object with keys and refs made for it.
 * What a hit shows of its message (the document key, the ref) is made when a search ranks it.
 */
import type { PassageDocument } from './indexedPassage';
import { IntColumn } from './intColumn';

/** One archived message as the index took it in. */
export interface ArchiveDocumentInput {
  readonly sessionId: string;
  /** 0-based place in its session's archive. */
  readonly position: number;
  readonly messageId: string;
  readonly role: string;
  readonly toolName?: string;
  /** Its passages: ids `first` up to `first + count`, exclusive. */
  readonly first: number;
  readonly count: number;
  /** Characters of its text that are indexed. */
  readonly chars: number;
}

/** The key of an archived message's document: unique across sessions and positions. */
export function archiveKey(sessionId: string, position: number): string {
  return `archive:${sessionId}:${position}`;
}

export class ArchiveDocuments {
  /** Session ids and role and tool names, each stored once and referred to by number. */
  private readonly names: string[] = [''];
  private readonly nameNumbers = new Map<string, number>([['', 0]]);
  private readonly sessions = new IntColumn();
  private readonly positions = new IntColumn();
  private readonly roles = new IntColumn();
  private readonly tools = new IntColumn();
  private readonly firsts = new IntColumn();
  private readonly counts = new IntColumn();
  private readonly charCounts = new IntColumn();
  private readonly messageIds: string[] = [];
  /** Document numbers of each session's messages, by position. */
  private readonly bySession = new Map<string, number[]>();

  /** Messages taken in, forgotten ones included: the next one's document number. */
  get size(): number {
    return this.messageIds.length;
  }

  /** Takes in a message; returns its document number. */
  add(input: ArchiveDocumentInput): number {
    const n = this.messageIds.length;
    this.messageIds.push(input.messageId);
    this.sessions.set(n, this.nameNumber(input.sessionId));
    this.positions.set(n, input.position);
    this.roles.set(n, this.nameNumber(input.role));
    this.tools.set(n, this.nameNumber(input.toolName ?? ''));
    this.firsts.set(n, input.first);
    this.counts.set(n, input.count);
    this.charCounts.set(n, input.chars);
    const list = this.bySession.get(input.sessionId) ?? [];
    list[input.position] = n;
    this.bySession.set(input.sessionId, list);
    return n;
  }

  /** The document numbers of a session's messages, and forgets them. */
  takeSession(sessionId: string): number[] {
    const list = this.bySession.get(sessionId) ?? [];
    this.bySession.delete(sessionId);
    return list.filter((n) => n !== undefined);
  }

  /** The fields of document `n` that its passages' hits show. */
  document(n: number): PassageDocument {
    const sessionId = this.names[this.sessions.get(n)];
    const messageId = this.messageIds[n];
    const toolName = this.names[this.tools.get(n)];
    return {
      documentKey: archiveKey(sessionId, this.positions.get(n)),
      source: 'archive',
      ref: `archive#${messageId}`,
      sessionId,
      messageId,
      role: this.names[this.roles.get(n)],
      ...(toolName ? { toolName } : {}),
    };
  }

  /** The passage ids of document `n`: `first` up to `first + count`, exclusive. */
  passages(n: number): { readonly first: number; readonly count: number } {
    return { first: this.firsts.get(n), count: this.counts.get(n) };
  }

  /** Characters of document `n`'s text that are indexed. */
  chars(n: number): number {
    return this.charCounts.get(n);
  }

  private nameNumber(name: string): number {
    let n = this.nameNumbers.get(name);
    if (n === undefined) {
      n = this.names.length;
      this.names.push(name);
      this.nameNumbers.set(name, n);
    }
    return n;
  }
}
