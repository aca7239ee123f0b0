/**
 * Lines a tool prints whatever happened: a line that runs of one program print both when they fail
 * and when they succeed (a linter's "Please report incorrect results: https://…", its "Use `x
 * explain` to explain issues") says nothing of either outcome, so it is never one, nor a line worth
 * a place among the earlier lines. Output no call asked for (what a host printed of what it ran itself, an
 * orphaned result) has no program to compare runs of: there a line whose shape, figures aside, two of those
 * outputs print is the host's own boilerplate (a banner, a token and cost tally after every reply). And a line whose
 * shape a shell tool prints around nearly every command's output, whatever the program, is the tool's frame
 * (`Signal: 0`, `Process Group PGID: 70561`), not what the program printed. Told by what the runs printed, never
 * by the line's words.
 */
import { withoutFields } from '../text/harnessFields';
import { outputEdges } from './outputEdges';
import type { ToolStep } from './toolSteps';

/** Lines read at each end of an output: where a tool's header and footer stand. @default 30 */
const EDGE_LINES = 30;
/** Characters of a line read. @default 400 */
const MAX_LINE_CHARS = 400;
/** A program's subcommand: a word of letters (`credo` in `mix credo`, `test` in `npm test`), not an option or a path. */
const SUBCOMMAND = /^[a-z][\w-]*$/i;

/**
 * A shell tool's frame is told from at least this many of its outputs, of at least {@link FRAME_MIN_PROGRAMS}
 * programs, a line shape being in at least {@link FRAME_SHARE} of them. @default 4, 3 and 0.8
 */
const FRAME_MIN_OUTPUTS = 4;
const FRAME_MIN_PROGRAMS = 3;
const FRAME_SHARE = 0.8;

/** What one shell tool printed: how many outputs, of which programs, and in how many outputs each line shape stood. */
interface ToolOutputs {
  outputs: number;
  readonly programs: Set<string>;
  readonly shapes: Map<string, number>;
}

/** The lines the runs of each program printed whatever their outcome. */
export class PrintedAnyway {
  private readonly lines = new Map<string, Set<string>>();
  /** Shapes of lines that more than one output no call asked for printed. */
  private readonly uncalledShapes = new Set<string>();
  /** Per shell tool, the shapes of the lines of its frame. */
  private readonly frames = new Map<string, Set<string>>();

  constructor(steps: readonly ToolStep[]) {
    const seen = new Map<string, Map<string, number>>();
    const uncalled = new Map<string, number>();
    const byTool = new Map<string, ToolOutputs>();
    for (const step of steps) {
      if (step.call === undefined) {
        for (const shape of shapesOf(edgeLines(step.result.content))) uncalled.set(shape, (uncalled.get(shape) ?? 0) + 1);
        continue;
      }
      const program = programOf(step);
      if (program === undefined) continue;
      const edges = edgeLines(step.result.content);
      if (step.activity.kind === 'command') countShapes(byTool, step.call.name, program, edges);
      const byLine = seen.get(program) ?? new Map<string, number>();
      seen.set(program, byLine);
      const mark = step.ok ? 1 : 2;
      for (const line of edges) byLine.set(line, (byLine.get(line) ?? 0) | mark);
    }
    for (const [program, byLine] of seen) {
      const both = [...byLine].filter(([, marks]) => marks === 3).map(([line]) => line);
      if (both.length > 0) this.lines.set(program, new Set(both));
    }
    for (const [shape, outputs] of uncalled) if (outputs > 1) this.uncalledShapes.add(shape);
    for (const [tool, printed] of byTool) {
      if (printed.outputs < FRAME_MIN_OUTPUTS || printed.programs.size < FRAME_MIN_PROGRAMS) continue;
      const frame = [...printed.shapes].filter(([, outputs]) => outputs >= FRAME_SHARE * printed.outputs).map(([shape]) => shape);
      if (frame.length > 0) this.frames.set(tool, new Set(frame));
    }
  }

  private framed(tool: string, line: string): boolean {
    return this.frames.size > 0 && (this.frames.get(tool)?.has(shapeOf(line)) ?? false);
  }

  /** True when `line` (cleaned, see `outputEdges`) is one the step's program prints whatever happens. */
  has(step: ToolStep, line: string): boolean {
    if (step.call === undefined) return this.uncalledShapes.size > 0 && this.uncalledShapes.has(shapeOf(line));
    if (step.activity.kind === 'command' && this.framed(step.call.name, line)) return true;
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

function countShapes(byTool: Map<string, ToolOutputs>, tool: string, program: string, edges: ReadonlySet<string>): void {
  let printed = byTool.get(tool);
  if (!printed) byTool.set(tool, (printed = { outputs: 0, programs: new Set(), shapes: new Map() }));
  printed.outputs++;
  printed.programs.add(program);
  for (const shape of shapesOf(edges)) printed.shapes.set(shape, (printed.shapes.get(shape) ?? 0) + 1);
}

/** The shapes of an output's edge lines, each once. */
function shapesOf(edges: ReadonlySet<string>): Set<string> {
  return new Set([...edges].map(shapeOf));
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
