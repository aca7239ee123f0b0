/**
 * What happened after each tool step, which tells what the step came to: whether the agent ran the
 * same call again (this run's output was not the last word on it), and what the agent said next,
 * in whose words a line the step printed comes back when the agent relied on it (a figure it
 * repeats, a name it goes on with). Read from the messages, never from the line's words.
 */
import { waitingKeys } from '../ledger/fixKeys';
import { proseLines } from '../text/prose';
import type { Message } from '../types';
import { namesWhatWasSeen } from './sentenceRole';
import { termsOf } from './terms';
import type { ToolStep } from './toolSteps';

/** Characters of the agent's next words read. @default 4000 — an answer's opening paragraphs. */
export const SAID_AFTER_CHARS = 4000;

export class WhatFollowed {
  private readonly said = new Map<number, string>();
  private readonly again = new Set<ToolStep>();

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
      if (this.messages[i].role === 'user') break;
      if (this.messages[i].role === 'assistant') said = proseLines(this.messages[i]).join('\n').slice(0, SAID_AFTER_CHARS).toLowerCase();
    }
    this.said.set(index, said);
    return said;
  }
}
