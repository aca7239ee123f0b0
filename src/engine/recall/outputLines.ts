/**
 * Lines of what the tools printed, for the earlier lines' pool only (design §4.1): once the facts
 * of a summarized span are all shown, the context may still have room, and the next best thing a
 * span holds is its outputs as they were printed. Each command's or other tool's output gives the
 * meaningful lines at its two ends (what it was doing, and how it ended), verbatim, scored below
 * every fact so they are shown last and leave the pool first. A line that only names a file is taken
 * only when the agent went on with that file. They take only the printed lines' part of the room, but
 * for the diagnostics, which are errors as much as facts are. A file's content is not among them:
 * it is on disk, and `ctx_recover` finds it; only a result that went to a file on arrival shows its content (`offloadedFacts`).
 */
import { isOnlyHostNote, isProgressLine } from '../ledger/resultLines';
import { isBareName } from './bareNames';
import { numberedRuns, oncePerPlace, repeatedShapes } from '../ledger/frameLines';
import { withoutFields } from '../text/harnessFields';
import { PrintedAnyway } from './printedAnyway';
import type { Message, ToolCallBlock } from '../types';
import { candidate, type Candidate } from './candidate';
import { diagnosticLinesOf } from './diagnosticLines';
import { outputEdges } from './outputEdges';
import type { Fact } from '../model/fact';
import { readToolSteps, type ToolStep } from './toolSteps';
import { isDelegation } from './reportFacts';
import { WhatFollowed } from './whatFollowed';
import { textProseLines } from '../text/prose';

/**
 * Lines taken from the start of an output, and from its end.
 * @default 15 and 30 — on the tuning split, 5 and 10 left 13 of 35 replays over budget ending under 70%
 * of it with their pool shown whole; 10 and 20 left 8. On the tuning split of 49 sessions, 10 and 20 left
 * 1 of 43 and kept 286 of 305 probes, 15 and 30 none and 287, 20 and 40 none and 286. They are scored
 * lowest and leave the pool first.
 */
export const OUTPUT_HEAD_LINES = 15;
export const OUTPUT_TAIL_LINES = 30;
/**
 * Scores of output lines: below every fact (the agent's own words start at 0.25), a line at either
 * end of an output alike, and a line that reads as a diagnostic, wherever it stands, above them: of
 * what a tool printed, it is what the agent may have worked around without running the tool again.
 * Where a line stands says how its program lays out its output, not what the step came to; what
 * happened next ranks them (see {@link FOLLOWED_BONUS}: the closing lines of a step the agent moved
 * on from, a line its next words come back to).
 * @default 0.11 and 0.2 — the end of an output above its start (0.12 and 0.1) kept 525 of set3's 540
 * probes, both alike 527 (artifacts 104 → 106), every other split unchanged, as many tokens sent.
 */
export const OUTPUT_LINE_SCORES = { line: 0.11, diagnostic: 0.2 } as const;
/**
 * What a line gains or loses by what happened after its step (`WhatFollowed`): a line the agent's
 * next words come back to (a figure it repeats, a name it goes on with), or that names the file its
 * next calls opened, is what it relied on; the last lines of a step the agent moved on from close
 * it, while a call run again was not the last word on what it ran.
 * @default echoed +0.06, closing +0.02, ran again −0.02
 */
export const FOLLOWED_BONUS = { echoed: 0.06, closing: 0.02, ranAgain: -0.02 } as const;
/** Lines at the end of an output that close its step. @default 3 */
export const CLOSING_LINES = 3;
/**
 * Most diagnostic lines of one output taken beyond its head and tail lines: the facts already hold
 * its first few, and a long log's hundredth error repeats the others. @default 12
 */
export const MAX_OUTPUT_DIAGNOSTICS = 12;
/** Longest line taken, in characters: longer lines are data. @default 200 */
export const MAX_OUTPUT_LINE_CHARS = 200;
/** Fewest letters a line needs to say something. @default 4 */
const MIN_LETTERS = 4;
const LETTERS = /\p{L}/gu;

/** The output lines of the tool results in `messages`, as facts for the pool. */
export function outputLineFacts(messages: readonly Message[], findCall?: (callId: string) => ToolCallBlock | undefined): Fact[] {
  return outputLineFactsOf(readToolSteps(messages, findCall), messages);
}

/**
 * The output lines of these tool steps, as facts for the pool: for a caller that has read the steps
 * already from `messages`, which tell what happened after each step.
 */
export function outputLineFactsOf(steps: readonly ToolStep[], messages: readonly Message[]): Fact[] {
  const found: Candidate[] = [];
  const anyway = new PrintedAnyway(steps);
  const followed = new WhatFollowed(messages, steps);
  for (const step of steps) {
    if (step.activity.kind === 'file' || isOnlyHostNote(step.result.content)) continue;
    found.push(...outputLines(step, anyway, followed));
  }
  return found.map(({ seq: _seq, ...fact }) => ({ ...fact, printed: true }));
}

/**
 * The lines a step printed worth a place: not the harness's fields, not a line its program prints
 * whatever happens, not the lines of a run it prints item by item (`withoutFields`, `PrintedAnyway`,
 * `repeatedShapes`, `numberedRuns`); of a diagnostic printed for several places, the first.
 */
function outputLines(step: ToolStep, anyway: PrintedAnyway, followed: WhatFollowed): Candidate[] {
  // A delegated agent's report is its prose: the code it quotes in fenced blocks is no statement of what it found.
  const delegated = isDelegation(step);
  const printed = withoutFields(step.result.content, delegated);
  const edges = outputEdges(
    delegated ? textProseLines(printed).join('\n') : printed,
    OUTPUT_HEAD_LINES,
    OUTPUT_TAIL_LINES,
    MAX_OUTPUT_LINE_CHARS * 2,
  );
  const ends = [...edges.head, ...edges.tail];
  const runs = repeatedShapes(ends);
  const numbered = numberedRuns(ends);
  // An output that is code (a page fetched, a file shown by a command) holds no outcome at its ends: its lines are
  // content, shown whole or not at all (`contentLines.ts`); its diagnostics still count.
  const printedCode = isMostlyCode(ends);
  const kept = new Set(
    oncePerPlace(
      ends.filter((line, i) => !runs.has(i) && !numbered.has(i) && saysSomething(line) && !anyway.has(step, line)),
      (l) => l,
    ),
  );
  const head = edges.head.filter((line) => kept.has(line));
  const tail = edges.tail.filter((line) => kept.has(line));
  const where = { messageId: step.messageId, seq: step.seq };
  const subject = step.subject ? { subject: step.subject } : {};
  const seen = new Set<string>();
  const out: Candidate[] = [];
  const again = followed.ranAgain(step) ? FOLLOWED_BONUS.ranAgain : 0;
  const closing = new Set((tail.length > 0 ? tail : head).slice(-CLOSING_LINES));
  const add = (line: string) => {
    if (seen.has(line)) return;
    seen.add(line);
    const reliedOn = followed.echoes(step, line) || followed.ledTo(step, line);
    // A file's name alone says only that the file is there; it earns a place when the agent went on with that file.
    if (!reliedOn && isBareName(line)) return;
    const next = again + (reliedOn ? FOLLOWED_BONUS.echoed : 0) + (again === 0 && closing.has(line) ? FOLLOWED_BONUS.closing : 0);
    const fact = candidate('outcome', line, where, Math.round((OUTPUT_LINE_SCORES.line + next) * 1000) / 1000, subject);
    if (fact) out.push(fact);
  };
  const diagnostics = oncePerPlace(
    diagnosticLinesOf(step).filter((line) => line.strength > 1),
    (line) => line.text,
  );
  for (const line of diagnostics.slice(0, MAX_OUTPUT_DIAGNOSTICS)) {
    seen.add(line.text);
    const fact = candidate('error', line.text, where, OUTPUT_LINE_SCORES.diagnostic, subject);
    if (fact) out.push(fact);
  }
  if (printedCode) return out;
  for (const line of [...head, ...tail]) add(line);
  return out;
}

/**
 * A line shaped like source code or markup rather than something a program said: a tag (`<meta charset="UTF-8" />`,
 * `</div>`), or a line that opens or closes a block or ends a statement (`header .logo {`, `display: flex;`, `}`).
 */
const CODE_SHAPED = /^<\/?[A-Za-z!][^>]*>?|(?:[{};]|\{\s*\}|\);?|\},?)$/;
/** Fewest lines of an output's ends that make it code: a couple of braces in a log are not a file. @default 4 */
const MIN_CODE_LINES = 4;
/** Share of an output's ends that code-shaped lines must reach for it to be code. @default 2/3 */
const CODE_SHARE = 2 / 3;

/** True when most of an output's meaningful lines at its ends are code (see {@link CODE_SHAPED}). */
function isMostlyCode(lines: readonly string[]): boolean {
  const code = lines.filter((line) => CODE_SHAPED.test(line)).length;
  return code >= MIN_CODE_LINES && code >= lines.length * CODE_SHARE;
}

/** True for a printed line worth a place: not too long to be data, not progress, not a dump, with a few letters. */
export function saysSomething(line: string): boolean {
  if (line.length > MAX_OUTPUT_LINE_CHARS || isProgressLine(line) || isDumpLine(line)) return false;
  return (line.match(LETTERS)?.length ?? 0) >= MIN_LETTERS;
}

/** A word of hexadecimal digits alone or a digit, an offset's colon after it allowed: `0000a0:`, `6f72`, `c3dec53`, `0`. */
const HEX_WORD = /^(?:[0-9a-f]{2,}|\d):?$/i;
/** Fewest words of a dump's line, and the share of them hexadecimal. @default 4 and 0.6 */
const DUMP_MIN_WORDS = 4;
const DUMP_HEX_SHARE = 0.6;

/**
 * A line of a dump (`000001f0: 673a 2027 6765 7474 …`, a listing of object ids): bytes and offsets written out,
 * data a program was asked to show, which says nothing read alone.
 */
function isDumpLine(line: string): boolean {
  const words = line.split(/\s+/).filter((word) => word.length > 0);
  return words.length >= DUMP_MIN_WORDS && words.filter((word) => HEX_WORD.test(word)).length >= words.length * DUMP_HEX_SHARE;
}
