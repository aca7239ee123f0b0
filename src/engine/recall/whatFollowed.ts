/**
 * What happened after each tool step, which tells what the step came to: whether the agent ran the
 * same call again (this run's output was not the last word on it), and what the agent said next,
 * in whose words a line the step printed comes back when the agent relied on it (a figure it
 * repeats, a name it goes on with), and which files its next calls opened, which a line the step
 * printed may name (a search's hit the agent then read or edited). Read from the messages, never
 * from the line's words.
 */
import { waitingKeys } from '../ledger/fixKeys';
import { proseLines } from '../text/prose';
import { userWrote, type Message } from '../types';
import { namesWhatWasSeen } from './sentenceRole';
import { termsOf } from './terms';
import type { ToolStep } from './toolSteps';

/** Characters of the agent's next words read. @default 4000 — an answer's opening paragraphs. */
export const SAID_AFTER_CHARS = 4000;
/** Calls after a step whose files count as opened next: the step's own follow-up, not later work. @default 3 */
export const NEXT_CALLS = 3;
/** A file a line names: a path with an extension, before a `:line`, a space or the end (`go/cmd/main.go:113:func …`). */
const NAMED_FILE = /(?:^|[\s"'`(])((?:[\w@.-]+\/)*[\w@-][\w@.-]*\.[A-Za-z][\w]{0,5})(?=[:\s"'`),]|$)/g;

export class WhatFollowed {
  private readonly said = new Map<number, string>();
  private readonly again = new Set<ToolStep>();
  private readonly openedNext = new Map<ToolStep, readonly string[]>();

  /** `steps` as read from `messages` (see `readToolSteps`). */
  constructor(
    private readonly messages: readonly Message[],
    steps: readonly ToolStep[],
  ) {
    // A command or another call run again; a file's steps print no lines of their own.
    const lastRun = new Map<string, ToolStep>();
    for (const step of steps) {
      if (step.activity.kind === 'file') continue;
      for (const key of waitingKeys(step.activity, step.call)) {
        const before = lastRun.get(key);
        if (before !== undefined && before !== step) this.again.add(before);
        lastRun.set(key, step);
      }
    }
    // The files the next calls of the same turn opened, read or edited.
    steps.forEach((step, i) => {
      const paths: string[] = [];
      for (let j = i + 1; j < steps.length && j <= i + NEXT_CALLS; j++) {
        const next = steps[j];
        if (this.userSpokeBetween(step.messageIndex, next.messageIndex)) break;
        if (next.activity.kind === 'file') paths.push(...next.activity.paths);
      }
      if (paths.length > 0) this.openedNext.set(step, paths);
    });
  }

  /** True when a line this step printed names a file that the agent's next calls opened: what the step led to. */
  ledTo(step: ToolStep, line: string): boolean {
    const opened = this.openedNext.get(step);
    if (opened === undefined) return false;
    for (const match of line.matchAll(NAMED_FILE)) {
      const named = match[1].replace(/^\.\//, '');
      if (opened.some((path) => path === named || path.endsWith(`/${named}`))) return true;
    }
    return false;
  }

  /** True when the user wrote between two messages; what a host put in a user message (a notice, a command's output) is not the user speaking. */
  private userSpokeBetween(from: number, to: number): boolean {
    for (let i = from + 1; i < to; i++) if (userWrote(this.messages[i])) return true;
    return false;
  }

  /** True when the same call ran again after this step. */
  ranAgain(step: ToolStep): boolean {
    return this.again.has(step);
  }

  /** True when the agent's next words name a term or repeat a figure of `line`. */
  echoes(step: ToolStep, line: string): boolean {
    const said = this.saidAfter(step.messageIndex);
    return said.length > 0 && namesWhatWasSeen(line, termsOf(line), said);
  }

  /** The lower-cased prose of the first assistant message with prose after message `index`. */
  private saidAfter(index: number): string {
    const known = this.said.get(index);
    if (known !== undefined) return known;
    let said = '';
    for (let i = index + 1; i < this.messages.length && said === ''; i++) {
      if (userWrote(this.messages[i])) break;
      if (this.messages[i].role === 'assistant') said = proseLines(this.messages[i]).join('\n').slice(0, SAID_AFTER_CHARS).toLowerCase();
    }
    this.said.set(index, said);
    return said;
  }
}
