/**
 * Facts of a successful file step: the file (keyed on the tool's own confirmation line when it names
 * the file, "File created successfully at: /path", else on the path), and for an
 * edit its outcome: the first line it put in, unless a later change took it out again, and the first line it took
 * out (what was there before, usually the line that was found wrong); for a file read from its top, what the file says
 * it is; for a file written whole, or what an edit put in, the lines that open what it defines (`definitionLines`); for
 * a file read, the lines that open what it defines when a later change wrote the name they define: the agent built on
 * what it read there (`export function loadRateTable(path: string): RateTable {` above a new module that calls it); and
 * for a file read, its named constants (`const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;`): the settings it runs by.
 */
import { keyOf } from '../facts/factKey';
import type { FileAction } from '../model/ledgerTypes';
import { candidate, keyedCandidate, MAX_FACT_TEXT_CHARS, type Candidate } from './candidate';
import { CONTENT_KEYS, stringInput } from '../toolInputKeys';
import { definitionLines, pieceDefinitionLines, readConstantLines, readDefinitionLines } from './definitionLines';
import { addedLines, codeAfterComment, editChange, putInStretches } from './editChange';
import { fileDescription } from './fileDescription';
import type { LaterEdits } from './laterEdits';
import { shellWrites } from '../ledger/shellWrites';
import type { TextEdit } from './textEdits';
import type { ToolStep } from './toolSteps';
import { withoutHostFrame } from '../text/hostFrame';
import { closedKeeping, FACT_LINE_TEXT_CHARS } from '../facts/factLines';
import { valueHead } from '../text/openValue';

/** Scores of files by what was done to them, and of the lines an edit changed. */
export const FILE_SCORES: Readonly<Record<FileAction, number>> & {
  readonly added: number;
  readonly removed: number;
  readonly otherPlace: number;
  readonly description: number;
  readonly definition: number;
  readonly builtOn: number;
  readonly constant: number;
} = {
  created: 0.7,
  edited: 0.65,
  deleted: 0.6,
  read: 0.3,
  /** The first line an edit put in: what the file says now. */
  added: 0.5,
  /** The first line an edit put in at each of its other places (`putInStretches`). */
  otherPlace: 0.45,
  /** The first line an edit took out. */
  removed: 0.45,
  /** A line at the top of a file read that says what the file is (see `fileDescription`): above the bare path. */
  description: 0.35,
  /** A line of a written file that opens what it defines (see `definitionLines`): its name, word for word. */
  definition: 0.45,
  /** A line of a file read that opens what it defines, whose name a later change wrote (see `definitionsBuiltOn`). */
  builtOn: 0.4,
  /** A named constant of a file read, set to a number written out (see `readConstantLines`): a setting the code runs by. */
  constant: 0.35,
};

/** Characters of a result read for its confirmation line. */
const CONFIRMATION_CHARS = 400;
/** Most places of one edit, after its first, whose first line put in is a fact. @default 2 */
export const MAX_MORE_PLACES = 2;

/** A file step's facts: one artifact per path, and an edit's changed lines, but a line put in that `later` changes took out again. */
export function fileFacts(step: ToolStep, later?: LaterEdits): Candidate[] {
  const activity = step.activity;
  if (activity.kind !== 'file') return [];
  const where = { messageId: step.messageId, seq: step.seq };
  const facts: Candidate[] = [];
  const confirmation = activity.action === 'read' ? undefined : confirmationLine(step.result.content, activity.paths);
  for (const path of activity.paths) {
    const score = FILE_SCORES[activity.action];
    const fact =
      confirmation?.includes(path) === true
        ? candidate('artifact', confirmation, where, score)
        : keyedCandidate('artifact', path, `${path} (${activity.action})`, where, score);
    if (fact) facts.push(fact);
  }
  if (activity.action === 'read' && activity.paths.length === 1) {
    const name = baseName(activity.paths[0]);
    for (const line of fileDescription(step.result.content)) {
      const fact = candidate('artifact', line, where, FILE_SCORES.description);
      if (fact) facts.push({ ...fact, text: `${name}: ${fact.text}` });
    }
    if (later !== undefined) facts.push(...definitionsBuiltOn(step, later, name, where));
    facts.push(...readConstantLines(step.result.content).flatMap((line) => lineOfFile(name, line, where, FILE_SCORES.constant)));
  }
  if (activity.action === 'created' && step.call !== undefined && activity.paths.length === 1) {
    // A file written whole names its content; one a patch adds, its added lines.
    const content = stringInput(step.call.input, CONTENT_KEYS)?.value ?? addedLines(step.call.input).join('\n');
    facts.push(...writtenDefinitions(content, activity.paths[0], where));
  }
  if (activity.action !== 'edited' || step.call === undefined) return facts;
  const path = activity.paths[0] ?? '';
  const stays = (line: string) => !(later?.tookOut(step, path, line) ?? false);
  return [...facts, ...editFacts(step.call.input, path, where, stays)];
}

/**
 * The facts of the files a successful command wrote from here-documents (see `shellWrites`): each file, and what it
 * defines when written whole, or what was put in when appended to.
 */
export function shellWriteFacts(step: ToolStep): Candidate[] {
  if (step.activity.kind !== 'command') return [];
  const where = { messageId: step.messageId, seq: step.seq };
  return step.activity.commands.flatMap(shellWrites).flatMap((write) => {
    const action: FileAction = write.appended ? 'edited' : 'created';
    const file = keyedCandidate('artifact', write.path, `${write.path} (${action})`, where, FILE_SCORES[action]);
    const facts = file ? [file] : [];
    const written = write.appended
      ? editFacts({ new_str: write.content }, write.path, where)
      : writtenDefinitions(write.content, write.path, where);
    return [...facts, ...written];
  });
}

/**
 * The name a definition line defines: the first word before an opening bracket, an assignment, a colon or a brace
 * (`loadRateTable` in `export function loadRateTable(path: string) {`, `RETRY_POLICY` in `const RETRY_POLICY = {`), when
 * it reads as a name of code (a capital, a digit or an underscore in it), not a word.
 */
const DEFINED_NAME = /([\p{L}_$][\p{L}\p{N}_$]*)\s*[(=:{<]/u;
const CODE_NAME = /[\p{Lu}\d_$]/u;

/** The definition lines of a file read (see `definitionLines`) whose name a change after the read wrote. */
function definitionsBuiltOn(
  step: ToolStep,
  later: LaterEdits,
  name: string,
  where: { readonly messageId: string; readonly seq: number },
): Candidate[] {
  // Most reads are followed by no change: their content is not read at all.
  if (!later.changedAfter(step)) return [];
  return readDefinitionLines(step.result.content).flatMap((line) => {
    const defined = DEFINED_NAME.exec(line)?.[1];
    if (defined === undefined || !CODE_NAME.test(defined.slice(1)) || !later.wroteName(step, defined)) return [];
    return lineOfFile(name, line, where, FILE_SCORES.builtOn);
  });
}

/** The lines of a file written whole that open what it defines (`definitionLines`), as facts naming the file. */
function writtenDefinitions(content: string, path: string, where: { readonly messageId: string; readonly seq: number }): Candidate[] {
  const name = baseName(path);
  return definitionLines(content).flatMap((line) => lineOfFile(name, line, where, FILE_SCORES.definition));
}

/** A line of a file, word for word, as an artifact naming the file it is in: `In rates.ts: export function …`. */
function lineOfFile(name: string, line: string, where: { readonly messageId: string; readonly seq: number }, score: number): Candidate[] {
  const fact = candidate('artifact', line, where, score);
  return fact ? [{ ...fact, text: `In ${name}: ${fact.text}` }] : [];
}

/** The facts of an edit an agent wrote in its own text (see `textEdits`): its file, edited, and what it put in and took out. */
export function textEditFacts(edit: TextEdit, where: { readonly messageId: string; readonly seq: number }): Candidate[] {
  const file = keyedCandidate('artifact', edit.path, `${edit.path} (edited)`, where, FILE_SCORES.edited);
  return [...(file ? [file] : []), ...editFacts({ old_string: edit.before, new_string: edit.after }, edit.path, where)];
}

/**
 * What an edit put in and took out, read from its input (`editChange`): the first line it put in, unless `stays` says a
 * later change took it out again, and the code after a comment it opened with; the first line it took out; and the
 * lines that open what it defines anew.
 */
export function editFacts(
  input: Readonly<Record<string, unknown>>,
  path: string,
  where: { readonly messageId: string; readonly seq: number },
  stays: (line: string) => boolean = () => true,
): Candidate[] {
  const facts: Candidate[] = [];
  const change = editChange(input);
  const name = baseName(path);
  const line = (text: string | undefined, prefix: string, score: number, takenOut?: string) => {
    const fact = text === undefined ? undefined : candidate('outcome', text, where, score, {}, headKey(text, prefix));
    if (fact) facts.push({ ...fact, text: `${prefix}${closedKeeping(fact.text, fact.key)}`, ...(takenOut ? { takenOut } : {}) });
  };
  const added = change?.added;
  line(added !== undefined && stays(added) ? added : undefined, name ? `Now in ${name}: ` : 'Put in: ', FILE_SCORES.added);
  // An edit that opens with a comment says what the file does now in the code after it.
  const putIn = addedLines(input);
  const code = codeAfterComment(putIn);
  line(code !== undefined && stays(code) ? code : undefined, name ? `Now in ${name}: ` : 'Put in: ', FILE_SCORES.added);
  // The other places the edit put lines in, each by its first line: the fix may be the second place, not the first.
  let more = 0;
  for (const other of putInStretches(input)) {
    if (more >= MAX_MORE_PLACES) break;
    if (other === added || other === code || facts.some((f) => f.key === other)) continue;
    more++;
    line(stays(other) ? other : undefined, name ? `Now in ${name}: ` : 'Put in: ', FILE_SCORES.otherPlace);
  }
  // A line the edit only added to says nothing the line it became does not.
  const removed = change?.removed;
  const onlyAddedTo = removed !== undefined && added !== undefined && wordsOf(removed).every((w) => wordsOf(added).includes(w));
  line(onlyAddedTo ? undefined : removed, name ? `Replaced in ${name}: ` : 'Replaced: ', FILE_SCORES.removed, name || undefined);
  // What the edit defines anew (a helper, a method) is named there and nowhere else once the edit has left.
  for (const definition of pieceDefinitionLines(putIn)) {
    if (added?.startsWith(definition) === true) continue;
    const fact = candidate('artifact', definition, where, FILE_SCORES.definition);
    if (fact) facts.push({ ...fact, text: `${name ? `In ${name}` : 'Put in'}: ${fact.text}` });
  }
  return facts;
}

/** Fewest characters of a value's head that tell it from another. @default 16 */
const MIN_HEAD_CHARS = 16;

/**
 * What a change too long for a fact's line is known by: its head (`valueHead`: a definition's signature, a key before
 * its list), so the line can be cut before the body it opens and still hold its key. Undefined for a change that fits.
 */
function headKey(value: string, prefix: string): string | undefined {
  if (prefix.length + value.length <= FACT_LINE_TEXT_CHARS) return undefined;
  const head = valueHead(value);
  return head !== undefined && head.length >= MIN_HEAD_CHARS ? head : undefined;
}

/**
 * The first sentence of the result's first line when it names one of the paths and is no longer than a fact's text:
 * the tool's own words for what it did. A long one is known by its start, as any sentence is; the path alone would be
 * a key the ledger already holds, so the line would never be shown.
 */
function confirmationLine(content: string, paths: readonly string[]): string | undefined {
  const head = withoutHostFrame(content.slice(0, CONFIRMATION_CHARS)).trimStart();
  const line = head.slice(0, (head.indexOf('\n') + 1 || head.length + 1) - 1).trim();
  const path = paths.find((p) => line.includes(p));
  if (path === undefined) return undefined;
  // The sentence that holds the path: up to the first ". " after it.
  const after = line.indexOf(path) + path.length;
  const stop = line.indexOf('. ', after);
  const sentence = stop < 0 ? line : line.slice(0, stop + 1);
  return sentence.length <= MAX_FACT_TEXT_CHARS && keyOf(sentence) !== undefined ? sentence : undefined;
}

function wordsOf(line: string): string[] {
  return line.match(/[\p{L}\p{N}_]+/gu) ?? [];
}

function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}
