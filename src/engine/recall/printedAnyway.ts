/**
 * Lines a tool prints whatever happened: a line that runs of one program print both when they fail
 * and when they succeed (a linter's "Please report incorrect results: https://…", its "Use `x
 * explain` to explain issues") says nothing of either outcome, so it is never one, nor a line worth
 * a place among the earlier lines. Output no call asked for (what a host printed of what it ran itself, an
 * orphaned result) has no program to compare runs of: there a line whose shape, figures aside, two of those
 * outputs print is the host's own boilerplate (a banner, a token and cost tally after every reply). Told by what
 * the runs printed, never by the line's words.
 */
import { withoutFields } from '../ledger/frameLines';
import { outputEdges } from './outputEdges';
import type { ToolStep } from './toolSteps';

/** Lines read at each end of an output: where a tool's header and footer stand. @default 30 */
const EDGE_LINES = 30;
/** Characters of a line read. @default 400 */
const MAX_LINE_CHARS = 400;
/** A program's subcommand: a word of letters (`credo` in `mix credo`, `test` in `npm test`), not an option or a path. */
const SUBCOMMAND = /^[a-z][\w-]*$/i;

/** The lines the runs of each program printed whatever their outcome. */
export class PrintedAnyway {
  private readonly lines = new Map<string, Set<string>>();
  /** Shapes of lines that more than one output no call asked for printed. */
  private readonly uncalledShapes = new Set<string>();

  constructor(steps: readonly ToolStep[]) {
    const seen = new Map<string, Map<string, number>>();
    const uncalled = new Map<string, number>();
    for (const step of steps) {
      if (step.call === undefined) {
        for (const shape of new Set([...edgeLines(step.result.content)].map(shapeOf))) uncalled.set(shape, (uncalled.get(shape) ?? 0) + 1);
        continue;
      }
      const program = programOf(step);
      if (program === undefined) continue;
      const byLine = seen.get(program) ?? new Map<string, number>();
      seen.set(program, byLine);
      const mark = step.ok ? 1 : 2;
      for (const line of edgeLines(step.result.content)) byLine.set(line, (byLine.get(line) ?? 0) | mark);
    }
    for (const [program, byLine] of seen) {
      const both = [...byLine].filter(([, marks]) => marks === 3).map(([line]) => line);
      if (both.length > 0) this.lines.set(program, new Set(both));
    }
    for (const [shape, outputs] of uncalled) if (outputs > 1) this.uncalledShapes.add(shape);
  }

  /** True when `line` (cleaned, see `outputEdges`) is one the step's program prints whatever happens. */
  has(step: ToolStep, line: string): boolean {
    if (step.call === undefined) return this.uncalledShapes.size > 0 && this.uncalledShapes.has(shapeOf(line));
    if (this.lines.size === 0) return false;
    const program = programOf(step);
    return program !== undefined && (this.lines.get(program)?.has(line) ?? false);
  }
}

/** The program a step ran (its first word and its subcommand), or the tool it called. */
function programOf(step: ToolStep): string | undefined {
  if (step.activity.kind === 'file') return undefined;
  if (step.activity.kind === 'other') return step.call?.name;
  const words = (step.activity.commands[0] ?? '').trim().split(/\s+/);
  return SUBCOMMAND.test(words[1] ?? '') ? `${words[0]} ${words[1]}` : words[0];
}

/** A line with its figures taken out: a tally printed after every reply differs in nothing else. */
function shapeOf(line: string): string {
  return line.replace(/\d+(?:[.,]\d+)*/g, '#');
}

/** The cleaned lines at both ends of an output, each once. */
function edgeLines(content: string): Set<string> {
  const { head, tail } = outputEdges(withoutFields(content), EDGE_LINES, EDGE_LINES, MAX_LINE_CHARS);
  return new Set([...head, ...tail]);
}
