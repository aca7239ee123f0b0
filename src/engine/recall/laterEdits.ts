/**
 * What later changes to files did: whether a line an edit put in was taken out again by a later change to the same
 * file (an edit whose replaced text holds the line and whose replacement does not, or a write of the whole file
 * without it: "Now in a.ts: retries = 3" is then no longer true, and a context that says it misleads the model that
 * reads it; the later change's own lines say what the file holds), and whether a later change to any file wrote a name.
 */
import { CONTENT_KEYS, stringInput } from '../toolInputKeys';
import { replacementOf } from './editChange';
import { containsTerm } from './terms';
import type { ToolStep } from './toolSteps';

/** Characters of a change's input read for the names it writes. @default 20000 */
const WRITTEN_CHARS = 20_000;

export class LaterEdits {
  /** The successful changes of each file, in order. */
  private readonly changesOf = new Map<string, ToolStep[]>();
  /** Every successful change, in the order of the steps. */
  private readonly changes: ToolStep[] = [];
  /** What each change's input wrote, read the first time a name is looked for. */
  private readonly written = new Map<ToolStep, string>();

  constructor(steps: readonly ToolStep[]) {
    for (const step of steps) {
      const activity = step.activity;
      if (!step.ok || step.call === undefined || activity.kind !== 'file' || activity.action === 'read') continue;
      this.changes.push(step);
      for (const path of activity.paths) {
        const changes = this.changesOf.get(path) ?? [];
        changes.push(step);
        this.changesOf.set(path, changes);
      }
    }
  }

  /** True when a successful change to any file came after `step`. */
  changedAfter(step: ToolStep): boolean {
    return (this.changes.at(-1)?.seq ?? -1) > step.seq;
  }

  /** True when a change after `step`, to any file, wrote `name` as a word. */
  wroteName(step: ToolStep, name: string): boolean {
    return this.changes.some((change) => change.seq > step.seq && containsTerm(this.writtenBy(change), name));
  }

  private writtenBy(change: ToolStep): string {
    let text = this.written.get(change);
    if (text === undefined) this.written.set(change, (text = JSON.stringify(change.call?.input ?? {}).slice(0, WRITTEN_CHARS)));
    return text;
  }

  /** True when a change after `step` to `path` took `line` out of it. */
  tookOut(step: ToolStep, path: string, line: string): boolean {
    const wanted = line.trim();
    const changes = this.changesOf.get(path) ?? [];
    for (const later of changes) {
      if (later.seq <= step.seq || later.call === undefined) continue;
      const input = later.call.input;
      const pair = replacementOf(input);
      if (pair !== undefined) {
        if (holdsLine(pair[0], wanted) && !holdsLine(pair[1], wanted)) return true;
        continue;
      }
      const whole = later.activity.kind === 'file' && later.activity.action === 'created' ? stringInput(input, CONTENT_KEYS) : undefined;
      if (whole !== undefined && !holdsLine(whole.value, wanted)) return true;
    }
    return false;
  }
}

function holdsLine(text: string, line: string): boolean {
  if (!text.includes(line)) return false;
  return text.split('\n').some((l) => l.trim() === line);
}
