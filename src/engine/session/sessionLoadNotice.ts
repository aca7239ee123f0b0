/** What loading a session tells the user, in plain words: what was recovered, what was not, where the files went. */
import type { ArchiveReadResult } from '../archive';
import type { Snapshot } from '../snapshots/snapshot';
import type { LeftOut } from '../storage/journalReplay';

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Why the saved state could not be used. */
export type StateFailure =
  | { readonly kind: 'missing' }
  | { readonly kind: 'unreadable'; readonly file: 'base' | 'journal'; readonly reason: string }
  | { readonly kind: 'newer'; readonly file: 'base' | 'journal'; readonly schema: number };

export interface RebuildNoticeParts {
  readonly sessionId: string;
  readonly failure: StateFailure;
  /** Store paths the unusable files were moved to. */
  readonly keptAs: readonly string[];
  readonly archive: ArchiveReadResult;
  readonly snapshot?: Snapshot;
  /** Messages after the snapshot (or all of them) that are taken in again. */
  readonly reconciled: number;
}

/** The notice for a state rebuilt from the archive (and a snapshot). */
export function rebuildNotice(p: RebuildNoticeParts): string {
  const why =
    p.failure.kind === 'missing'
      ? 'was missing'
      : p.failure.kind === 'newer'
        ? `was written by a newer version of ctx (schema ${p.failure.schema}) and could not be read`
        : 'could not be read';
  const sentences = [
    `The state of session ${p.sessionId} ${why}, so its context was rebuilt from the archive (${count(p.archive.messages.length, 'message')})` +
      (p.snapshot ? ` and the snapshot "${p.snapshot.name}" of ${new Date(p.snapshot.at).toISOString()}.` : '.'),
  ];
  if (p.failure.kind === 'unreadable') {
    sentences.push(`The ${p.failure.file === 'journal' ? "state's journal" : 'state file'} could not be used because ${p.failure.reason}.`);
  }
  if (p.keptAs.length > 0) {
    sentences.push(`The unusable file${p.keptAs.length === 1 ? ' was' : 's were'} kept, unchanged, as ${p.keptAs.join(' and ')}.`);
  }
  sentences.push(p.snapshot ? recoveredFromSnapshot(p.snapshot, p.reconciled) : recoveredFromArchive());
  sentences.push(...archiveSentences(p.archive));
  return sentences.join(' ');
}

function recoveredFromSnapshot(snapshot: Snapshot, reconciled: number): string {
  const c = snapshot.content;
  const goals = c.ledger.goals.length;
  const decisions = c.ledger.decisions.length;
  return (
    `Recovered: the ledger (${count(goals, 'goal')}, ${count(decisions, 'locked decision')}), ${count(c.checkpoints.length, 'checkpoint')}, ` +
    `${count(c.offloads.length, 'offloaded result')} and the context as of the snapshot; ` +
    `${count(reconciled, 'later message')} taken in again from the archive. ` +
    'Not recovered: goals and decisions added with /goal or /decide after the snapshot, and the compression history.'
  );
}

function recoveredFromArchive(): string {
  return (
    'Recovered: every archived message, and from them the intent, your messages, [GOAL] and [DECISION] lines and the record of files and commands. ' +
    'Not recovered (no snapshot could be read): goals and decisions added with /goal or /decide, ' +
    'checkpoint summaries (made again from the archive when needed) and the compression history.'
  );
}

/** What the archive itself had wrong. */
export function archiveSentences(archive: ArchiveReadResult): string[] {
  const out: string[] = [];
  if (archive.unreadableLines.length > 0) {
    out.push(
      `Archive line${archive.unreadableLines.length === 1 ? '' : 's'} ${archive.unreadableLines.join(', ')} could not be read ` +
        `and ${archive.unreadableLines.length === 1 ? 'was' : 'were'} skipped (left in place).`,
    );
  }
  if (archive.salvagedLines.length > 0) {
    out.push(
      `Archive line${archive.salvagedLines.length === 1 ? '' : 's'} ${archive.salvagedLines.join(', ')} held a write cut short followed by a whole message; ` +
        `the whole message was recovered.`,
    );
  }
  if (archive.tornTail) {
    out.push('The archive ended in a write cut short; it is moved to a side file next to the archive before the next message is added.');
  }
  return out;
}

export interface LoadedNoticeParts {
  readonly sessionId: string;
  /** What the journal ignored or set aside. */
  readonly journalNotes: readonly string[];
  /** Journal lines that could not be applied. */
  readonly leftOut?: LeftOut;
  readonly unreconciled: number;
  readonly unarchived: number;
  readonly archive: ArchiveReadResult;
}

/** The notice for a state that loaded, when anything about it needs saying; undefined when all was in order. */
export function loadedNotice(p: LoadedNoticeParts): string | undefined {
  const sentences: string[] = [];
  if (p.journalNotes.length > 0) sentences.push(`Session ${p.sessionId}'s saved state: ${p.journalNotes.join('; ')}.`);
  if (p.unreconciled > 0) {
    sentences.push(
      `${count(p.unreconciled, 'archived message was', 'archived messages were')} newer than the saved state (its last save was interrupted) ` +
        `and ${p.unreconciled === 1 ? 'is' : 'are'} taken in again from the archive.`,
    );
  }
  if (p.unarchived > 0) {
    sentences.push(
      `${count(p.unarchived, 'message')} of the saved state ${p.unarchived === 1 ? 'was' : 'were'} missing from the archive ` +
        `(a full disk or a crash kept ${p.unarchived === 1 ? 'it' : 'them'} out).`,
    );
  }
  sentences.push(...archiveSentences(p.archive));
  const lost = p.leftOut ? leftOutSentence(p.leftOut) : undefined;
  if (lost) sentences.push(lost);
  return sentences.length === 0 ? undefined : `${sentences.join(' ')}${lost ? '' : ' Nothing else was lost.'}`;
}

/** What a state field holds, for the user; messages are absent because the archive gives them back. */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  ledger: 'goals and decisions (/goal, /decide)',
  offloads: 'offload records',
  checkpoints: 'checkpoints',
  retiredCheckpoints: 'checkpoints',
  history: 'compression history',
  checkpointsMade: 'compression history',
  truncations: 'compression history',
  watermark: 'compression history',
  timeline: 'the usage timeline',
};

/** Fields whose changes come back without the journal: messages from the archive, values made again. */
const RECOVERED_FIELDS = new Set([
  'active',
  'archivedCount',
  'title',
  'updatedAt',
  'pendingCheckpointTool',
  'putBack',
  'contextConfidence',
  'autoSnapshotArmed',
]);

/** Says what left-out journal lines held that could not come back; undefined when nothing. */
function leftOutSentence(leftOut: LeftOut): string | undefined {
  const words = [
    ...new Set(
      leftOut.fields
        .filter((f) => !RECOVERED_FIELDS.has(f))
        .map((f) => (Object.hasOwn(FIELD_WORDS, f) ? FIELD_WORDS[f] : `the "${f}" field`)),
    ),
  ];
  if (leftOut.unknown) {
    return (
      'Not recovered: what the journal lines that could not be read held; they may have added goals, decisions, offload records or ' +
      'compression history, which are only in the kept journal (messages come back from the archive).'
    );
  }
  if (words.length === 0) return undefined;
  return `Not recovered: the changes to ${words.join(', ')} in the lines left out; they are only in the kept journal (messages come back from the archive).`;
}
