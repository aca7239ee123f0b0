/**
 * Recovery (design §8): one full-text index over a
 * session's offloaded files, its archived messages and, later, its checkpoints. Everything is
 * indexed in passages with line ranges, so a hit says where to read, not just which file.
 */
import { forEachArchived } from '../model/archivedMessages';
import { ArchiveDocuments, archiveKey } from './archiveDocuments';
import type { Store } from '../ports';
import { codeTerms, normalizeTerm } from './codeTerms';
import type { IndexedPassage, PassageDocument } from './indexedPassage';
import { messageSearchText } from './messageText';
import { assertSafeSessionId } from './offloadedPath';
import { PassageTable } from './passageTable';
import { ReadBackTexts } from './readBackTexts';
import { capForIndexing, splitIntoPassages } from './passages';
import { phrasePattern, verbatimOffset } from './excerpt';
import { RERANK_POOL, rankCandidates, type Candidate } from './ranking';
import { cappedNote, indexFullNote, skippedEntryNote, unreadableArchiveNote, unreadableFileNote } from './recoveryNotes';
import type { RecoveryDocumentInput, RecoveryHit, RecoveryNote, RecoverySearchOptions, RecoverySource } from '../model/recoveryTypes';
import { readSessionContent, type MessageReader, type SessionContent } from './sessionContent';
import { TermIndex, type TermField, type TermMatch } from './termIndex';
import { TermRarity } from './termRarity';

/** Offloaded results can be 50 MB; the first 5 MB of one is what a search can reasonably need. */
export const DEFAULT_MAX_CHARS_PER_DOCUMENT = 5_000_000;
/** All documents together: keeps the index to a few hundred megabytes of memory at worst. */
export const DEFAULT_MAX_TOTAL_CHARS = 50_000_000;
/** Prefix and fuzzy matching start at this term length; shorter terms match too much. */
export const LOOSE_MATCH_MIN_LENGTH = 4;
/** Fuzziness as a share of the term's length (one edit in five characters). */
export const FUZZINESS = 0.2;
/** Typos are one or two edits; more only slows the search on a large vocabulary of ids and hashes. */
export const MAX_FUZZY_EDITS = 2;
/** Hits returned when the caller does not say. */
export const DEFAULT_TOP = 10;

export interface RecoveryIndexOptions {
  /** Characters of one offloaded file or message that are indexed; the rest is noted. @default 5000000 */
  readonly maxCharsPerDocument?: number;
  /** Characters indexed over all documents; later documents are noted, not indexed. @default 50000000 */
  readonly maxTotalChars?: number;
}

/**
 * The fields indexed for a passage, in this order: its text; the file name or ref, so a search for
 * a tool or file name finds its passages; the tool's name.
 */
const FIELDS: readonly TermField[] = [
  { name: 'text', boost: 1 },
  { name: 'name', boost: 0.5 },
  { name: 'toolName', boost: 0.5 },
];

/** The passage ids of a document and the characters of it that are indexed. */
interface DocumentSpan {
  /** Its passages: ids `first` up to `first + count`, exclusive. */
  readonly first: number;
  readonly count: number;
  readonly chars: number;
}

/**
 * A document that is not an archived message (an offloaded file, an added document), by key: its fields and passages.
 * An archived message's or an offloaded file's passages keep only their place in the document's text, read back from
 * the store when a search ranks them (a session's history is not held in memory); an added document's keep their text.
 */
interface KeptDocument extends DocumentSpan {
  /** Its number in the passage table (positive; an archived message's is negative, see `archiveNumber`). */
  readonly number: number;
}

/** How much of a session's archive is indexed: messages are appended, never changed. */
interface ArchiveProgress {
  readonly count: number;
  readonly lastId: string | undefined;
}

/**
 * A searchable index of one or more stored sessions. Build it with `RecoveryIndex.build`, call
 * `refresh` to take in what the sessions gained since, and `addDocuments` for checkpoints.
 */
export class RecoveryIndex {
  private readonly terms = new TermIndex(FIELDS, codeTerms, normalizeTerm, {
    prefix: (term) => term.length >= LOOSE_MATCH_MIN_LENGTH,
    fuzzy: (term) => (term.length >= LOOSE_MATCH_MIN_LENGTH ? FUZZINESS : false),
    maxFuzzy: MAX_FUZZY_EDITS,
  });
  private readonly passages = new PassageTable();
  private readonly rarity = new TermRarity();
  /** The documents that are not archived messages, by document key. */
  private readonly documents = new Map<string, KeptDocument>();
  /** The fields of those documents, by their number in the passage table. */
  private readonly keptFields: (PassageDocument | undefined)[] = [undefined];
  /** The archived messages indexed. */
  private readonly archived = new ArchiveDocuments();
  /** Keys of the offloaded files' documents: a folder's listing is checked against them, not against every message. */
  private readonly offloadedDocuments = new Set<string>();
  private readonly archiveProgress = new Map<string, ArchiveProgress>();
  /** How each session's archived messages are read back, as its content last said. */
  private readonly messageReaders = new Map<string, MessageReader>();
  /** The results an archived message's indexed text shows as a pointer to their offloaded file, when it has any. */
  private readonly pointedResults = new Map<string, readonly string[]>();
  private readonly noteMap = new Map<string, RecoveryNote>();
  private readonly readBack = new ReadBackTexts();
  private readonly maxCharsPerDocument: number;
  private readonly maxTotalChars: number;
  private indexedChars = 0;
  private nextId = 1;

  private constructor(
    private readonly store: Store,
    readonly sessionIds: readonly string[],
    options: RecoveryIndexOptions,
  ) {
    this.maxCharsPerDocument = options.maxCharsPerDocument ?? DEFAULT_MAX_CHARS_PER_DOCUMENT;
    this.maxTotalChars = options.maxTotalChars ?? DEFAULT_MAX_TOTAL_CHARS;
  }

  /** Indexes the offloaded files and archives of the sessions. Throws `UnsafeSessionIdError` for an id that is not a folder name. */
  static async build(store: Store, sessionIds: string | readonly string[], options: RecoveryIndexOptions = {}): Promise<RecoveryIndex> {
    const ids = typeof sessionIds === 'string' ? [sessionIds] : [...sessionIds];
    ids.forEach(assertSafeSessionId);
    const index = new RecoveryIndex(store, ids, options);
    await index.refresh();
    return index;
  }

  /**
   * An empty index of one session, filled by the caller with `takeIn` from what it already knows
   * (a live session knows where its archived messages are), so the archive is not parsed whole again.
   */
  static forSession(store: Store, sessionId: string, options: RecoveryIndexOptions = {}): RecoveryIndex {
    assertSafeSessionId(sessionId);
    return new RecoveryIndex(store, [sessionId], options);
  }

  /** Takes in what the session's content holds beyond what is indexed: new offloaded files and archived messages. */
  async takeIn(sessionId: string, content: SessionContent): Promise<void> {
    await this.refreshOffloaded(sessionId, content);
    await this.refreshArchive(sessionId, content);
  }

  /** Passages in the index. */
  get size(): number {
    return this.passages.size;
  }

  /** What was left out of the index, in plain words. */
  get notes(): readonly RecoveryNote[] {
    return [...this.noteMap.values()];
  }

  /**
   * Takes in what the sessions gained since the last build or refresh: new offloaded files and
   * archived messages are indexed; files that are gone and archives that were rewritten are forgotten.
   */
  async refresh(): Promise<void> {
    for (const sessionId of this.sessionIds) {
      const content = await readSessionContent(this.store, sessionId);
      await this.refreshOffloaded(sessionId, content);
      await this.refreshArchive(sessionId, content);
    }
  }

  /** Adds or replaces documents of a source, checkpoints for instance; the same ref replaces. */
  addDocuments(source: RecoverySource, documents: readonly RecoveryDocumentInput[]): void {
    for (const doc of documents) {
      const key = externalKey(source, doc.sessionId, doc.ref);
      this.forget(key);
      const { sessionId, messageId, role, toolName } = doc;
      this.keepDocument(
        key,
        withoutUndefined({ documentKey: key, source, ref: doc.ref, sessionId, messageId, role, toolName }),
        doc.text,
        doc.ref,
        true,
      );
    }
  }

  /** Removes a document added with `addDocuments`. */
  removeDocument(source: RecoverySource, ref: string, sessionId?: string): void {
    this.forget(externalKey(source, sessionId, ref));
  }

  /** The best passages for a query, best first. An empty query finds nothing. */
  async search(query: string, options: RecoverySearchOptions = {}): Promise<RecoveryHit[]> {
    const requested = options.top ?? DEFAULT_TOP;
    const top = Number.isFinite(requested) ? Math.max(0, Math.floor(requested)) : DEFAULT_TOP;
    if (query.trim().length === 0 || top === 0) return [];
    const sources = options.sources;
    const wanted = (id: number) => {
      const source = this.sourceOf(this.passages.documentOf(id));
      return source !== undefined && (sources === undefined || sources.includes(source));
    };
    const results = this.terms.search(
      options.exactTerms ? this.distinctiveTerms(query) : query,
      options.exactTerms ? { prefix: () => false, fuzzy: () => false } : {},
      wanted,
    );
    const pool = results.slice(0, Math.max(RERANK_POOL, top * 4));
    const candidates = await this.candidatesOf(pool);
    // BM25 ranks a long passage that says the query once below shorter ones that repeat its words: a passage that
    // holds the query as written is looked for further down when none of the pool does.
    const phrase = phrasePattern(query);
    if (
      phrase !== undefined &&
      results.length > pool.length &&
      !candidates.some((c) => verbatimOffset(c.passage.text, phrase) !== undefined)
    ) {
      candidates.push(...(await this.candidatesOf(holdersOfEveryTerm(results.slice(pool.length), query))));
    }
    return rankCandidates(candidates, query, top);
  }

  /** The passages of these matches with their texts, read back once per document. */
  private async candidatesOf(matches: readonly TermMatch[]): Promise<Candidate[]> {
    const fields = new Map<number, PassageDocument>();
    for (const r of matches) {
      const document = this.passages.documentOf(r.id);
      const known = document !== 0 && !fields.has(document) ? this.fieldsOf(document) : undefined;
      if (known) fields.set(document, known);
    }
    const texts = await this.documentTexts(fields);
    return matches.flatMap((r) => {
      const stored = this.passages.get(r.id);
      const document = stored && fields.get(stored.document);
      const text = stored && (stored.text ?? texts.get(stored.document)?.slice(stored.from, stored.to));
      if (stored === undefined || document === undefined || text === undefined) return [];
      const passage: IndexedPassage = { ...document, id: r.id, text, startLine: stored.startLine, endLine: stored.endLine };
      return [{ passage, score: r.score, terms: r.terms }];
    });
  }

  /**
   * The indexed texts of these documents that are read back: an offloaded file from the store, an archived message
   * through its session's reader, rendered as it was indexed. A document that cannot be read any more is left out.
   */
  private async documentTexts(documents: ReadonlyMap<number, PassageDocument>): Promise<Map<number, string>> {
    const texts = new Map<number, string>();
    const messages = new Map<string, [number, PassageDocument][]>();
    for (const [n, d] of documents) {
      const known = this.readBack.get(n);
      if (known !== undefined) texts.set(n, known);
      else if (d.source === 'offloaded' && d.file !== undefined) {
        const text = await this.store.read(d.file).catch(() => undefined);
        if (text !== undefined) texts.set(n, this.keepReadBack(n, text));
      } else if (d.source === 'archive' && d.sessionId !== undefined && d.messageId !== undefined) {
        messages.set(d.sessionId, [...(messages.get(d.sessionId) ?? []), [n, d]]);
      }
    }
    for (const [sessionId, list] of messages) {
      const reader = this.messageReaders.get(sessionId);
      const read = reader ? await reader(list.map(([, d]) => d.messageId ?? '')).catch(() => []) : [];
      list.forEach(([n, d], i) => {
        const message = read[i];
        if (!message || message.id !== d.messageId) return;
        texts.set(n, this.keepReadBack(n, messageSearchText(message, new Set(this.pointedResults.get(d.documentKey))).text));
      });
    }
    return texts;
  }

  /** The indexed part of document `n`'s text, kept for the next search when it is the whole text (a part would hold the whole). */
  private keepReadBack(n: number, text: string): string {
    const chars = this.charsOf(n);
    if (text.length > chars) return text.slice(0, chars);
    this.readBack.keep(n, text);
    return text;
  }

  /** The fields of document `n` (see `archiveNumber`), as a hit shows them. */
  private fieldsOf(n: number): PassageDocument | undefined {
    return n < 0 ? this.archived.document(archiveIndex(n)) : this.keptFields[n];
  }

  /** The source of document `n`; undefined for 0, no document. */
  private sourceOf(n: number): RecoverySource | undefined {
    return n < 0 ? 'archive' : this.keptFields[n]?.source;
  }

  private charsOf(n: number): number {
    if (n < 0) return this.archived.chars(archiveIndex(n));
    const key = this.keptFields[n]?.documentKey;
    return (key !== undefined ? this.documents.get(key)?.chars : undefined) ?? 0;
  }

  /**
   * A verbatim text's rarest words, as a query: they rank the passages holding the text first as
   * the whole text would, and a search for them reads only the few passages that have them, so its
   * cost does not grow with the session. The ranking below still compares the whole text.
   */
  private distinctiveTerms(text: string): string {
    const terms = codeTerms(text).flatMap((t) => normalizeTerm(t) ?? []);
    return this.rarity.rarest(terms, this.passages.size).join(' ');
  }

  /** New files are read and indexed one at a time, so only one large file is in memory at once. */
  private async refreshOffloaded(sessionId: string, content: SessionContent): Promise<void> {
    const pathOf = (name: string) => `${content.offloadedFolder}/${name}`;
    const present = new Set(content.offloadedNames.map((name) => offloadedKey(pathOf(name))));
    const prefix = offloadedKey(pathOf(''));
    for (const key of [...this.offloadedDocuments]) if (key.startsWith(prefix) && !present.has(key)) this.forget(key);
    for (const key of [...this.noteMap.keys()]) if (key.startsWith(`skipped:${prefix}`)) this.noteMap.delete(key);
    if (content.offloadedProblem !== undefined) {
      this.noteMap.set(`skipped:${prefix}`, unreadableFileNote(content.offloadedFolder, content.offloadedProblem));
    }
    for (const entry of content.skippedEntries) {
      const path = pathOf(entry.name);
      this.noteMap.set(`skipped:${offloadedKey(path)}`, skippedEntryNote(path, entry.kind));
    }
    for (const name of content.offloadedNames) {
      const path = pathOf(name);
      const key = offloadedKey(path);
      if (this.documents.has(key)) continue;
      const text = await this.store.read(path).catch((e: unknown) => {
        this.noteMap.set(`skipped:${key}`, unreadableFileNote(path, e instanceof Error ? e.message : String(e)));
        return undefined;
      });
      if (text === undefined) continue;
      const toolName = content.origins.get(name)?.toolName;
      this.offloadedDocuments.add(key);
      this.keepDocument(
        key,
        { documentKey: key, source: 'offloaded', ref: path, file: path, sessionId, ...(toolName ? { toolName } : {}) },
        text,
        name,
        false,
      );
    }
  }

  /** Archived messages are read in bounded batches, so only a batch of a long archive is in memory at once. */
  private async refreshArchive(sessionId: string, content: SessionContent): Promise<void> {
    const messages = content.messages;
    let progress = this.archiveProgress.get(sessionId) ?? { count: 0, lastId: undefined };
    if (messages.count < progress.count || (progress.count > 0 && messages.idAt(progress.count - 1) !== progress.lastId)) {
      this.forgetArchive(sessionId);
      progress = { count: 0, lastId: undefined };
    }
    const present = new Set(content.offloadedNames);
    const offloadedCallIds = new Set([...content.origins].filter(([name]) => present.has(name)).map(([, o]) => o.callId));
    this.messageReaders.set(sessionId, content.readMessages);
    await forEachArchived(messages, progress.count, (message, i) => {
      const { text, toolName } = messageSearchText(message, offloadedCallIds);
      const pointed = message.blocks.flatMap((b) => (b.type === 'toolResult' && offloadedCallIds.has(b.callId) ? [b.callId] : []));
      const key = archiveKey(sessionId, i);
      if (pointed.length > 0) this.pointedResults.set(key, pointed);
      // The archive's own string for the id, when it is the same: the index makes no copy of it.
      const messageId = messages.idAt(i) === message.id ? (messages.idAt(i) ?? message.id) : message.id;
      const number = archiveNumber(this.archived.size);
      const span = this.indexDocument(key, `archive#${messageId}`, number, text, '', toolName ?? '', false);
      this.archived.add({ sessionId, position: i, messageId, role: message.role, ...(toolName ? { toolName } : {}), ...span });
    });
    this.archiveProgress.set(sessionId, { count: messages.count, lastId: messages.idAt(messages.count - 1) });
    this.noteUnreadableLines(sessionId, content);
  }

  private noteUnreadableLines(sessionId: string, content: SessionContent): void {
    const key = `unreadable:${sessionId}`;
    if (content.unreadableLines.length === 0) this.noteMap.delete(key);
    else this.noteMap.set(key, unreadableArchiveNote(content.archivePath, sessionId, content.unreadableLines));
  }

  /** Indexes a document that is not an archived message, keeping its fields by its key. */
  private keepDocument(key: string, fields: PassageDocument, text: string, name: string, keepText: boolean): void {
    const number = this.keptFields.length;
    this.keptFields.push(fields);
    const span = this.indexDocument(key, fields.ref, number, text, name, fields.toolName ?? '', keepText);
    this.documents.set(key, { ...span, number });
  }

  /**
   * Splits a document into passages and indexes them, within the per-document and total bounds. `keepText` when the
   * document cannot be read back later (an added one): the others keep only their passages' places.
   */
  private indexDocument(
    key: string,
    ref: string,
    document: number,
    text: string,
    name: string,
    toolName: string,
    keepText: boolean,
  ): DocumentSpan {
    const room = Math.min(this.maxCharsPerDocument, this.maxTotalChars - this.indexedChars);
    if (room <= 0) {
      this.noteMap.set(key, indexFullNote(ref, this.maxTotalChars));
      return { first: this.nextId, count: 0, chars: 0 };
    }
    const capped = capForIndexing(text, room);
    if (capped.capped) {
      this.noteMap.set(key, cappedNote(this.sourceOf(document) ?? 'archive', ref, capped.text.length, capped.totalChars, capped.lastLine));
    }
    const first = this.nextId;
    for (const passage of splitIntoPassages(capped.text)) {
      const id = this.nextId++;
      const { startLine, endLine, from, to } = passage;
      this.passages.add(id, { document, startLine, endLine, from, to, ...(keepText ? { text: passage.text } : {}) });
      this.rarity.countPassage(this.terms.add(id, [passage.text, name, toolName]));
    }
    this.indexedChars += capped.text.length;
    return { first, count: this.nextId - first, chars: capped.text.length };
  }

  private forget(key: string): void {
    const doc = this.documents.get(key);
    if (!doc) return;
    this.discardPassages(doc);
    this.readBack.forget(doc.number);
    this.keptFields[doc.number] = undefined;
    this.documents.delete(key);
    this.offloadedDocuments.delete(key);
    this.noteMap.delete(key);
  }

  /** Forgets every archived message of a session (its archive was rewritten). */
  private forgetArchive(sessionId: string): void {
    this.readBack.clear();
    for (const n of this.archived.takeSession(sessionId)) {
      this.discardPassages({ ...this.archived.passages(n), chars: this.archived.chars(n) });
      const key = this.archived.document(n).documentKey;
      this.pointedResults.delete(key);
      this.noteMap.delete(key);
    }
  }

  private discardPassages(span: DocumentSpan): void {
    for (let id = span.first; id < span.first + span.count; id++) {
      this.terms.discard(id);
      this.passages.delete(id);
    }
    this.indexedChars -= span.chars;
  }
}

/** An archived message's document number in the passage table: negative, so it never meets a kept document's. */
function archiveNumber(index: number): number {
  return -(index + 1);
}

/** The index in `ArchiveDocuments` of an archived message's document number. */
function archiveIndex(n: number): number {
  return -n - 1;
}

function offloadedKey(path: string): string {
  return `offloaded:${path}`;
}

/** Added documents have their own key space, so no ref can collide with a file or a message. */
function externalKey(source: RecoverySource, sessionId: string | undefined, ref: string): string {
  return `added:${source}:${sessionId ?? ''}:${ref}`;
}

/** Optional fields left out rather than set to undefined, so hits list only what they know. */
function withoutUndefined(base: PassageDocument): PassageDocument {
  return Object.fromEntries(Object.entries(base).filter(([, v]) => v !== undefined)) as PassageDocument;
}

/**
 * Of matches below the re-ranked pool, at most {@link RERANK_POOL} that matched every term of the query (its words
 * and their parts), best first: only those can hold it as written.
 */
function holdersOfEveryTerm(matches: readonly TermMatch[], query: string): TermMatch[] {
  const words = [...new Set(codeTerms(query).flatMap((t) => normalizeTerm(t) ?? []))];
  const found: TermMatch[] = [];
  for (const match of matches) {
    if (found.length >= RERANK_POOL) break;
    if (words.every((w) => match.terms.includes(w))) found.push(match);
  }
  return found;
}
