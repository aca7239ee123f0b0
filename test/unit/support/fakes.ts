/** Deterministic stand-ins for the engine's ports, for plain-node tests. */
import type { Clock, EncodingName, Logger, Tokenizer, WorkspaceFiles } from '../../../src/engine/ports';

/** Counts one token per four characters, rounded up: exact counts do not matter where it is used. */
export class CharTokenizer implements Tokenizer {
  readonly encoding: EncodingName = 'o200k_base';
  ready = true;
  counted = 0;
  async whenReady(): Promise<void> {
    this.ready = true;
  }
  async countMany(texts: readonly string[]): Promise<number[]> {
    this.counted += texts.length;
    return texts.map((t) => Math.ceil(t.length / 4));
  }
}

export class FakeClock implements Clock {
  constructor(public time = Date.UTC(2026, 0, 21, 10, 35, 22)) {}
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

/** Workspace files held in a map, keyed by the path a tool used. */
export class FakeFiles implements WorkspaceFiles {
  readonly files = new Map<string, string>();
  async readText(path: string): Promise<string | undefined> {
    return this.files.get(path);
  }
}

/** Keeps what was logged, so tests can check that a non-event was at least reported. */
export class RecordingLogger implements Logger {
  readonly lines: { level: string; message: string }[] = [];
  trace(message: string): void {
    this.lines.push({ level: 'trace', message });
  }
  debug(message: string): void {
    this.lines.push({ level: 'debug', message });
  }
  info(message: string): void {
    this.lines.push({ level: 'info', message });
  }
  warn(message: string): void {
    this.lines.push({ level: 'warn', message });
  }
  error(error: string | Error): void {
    this.lines.push({ level: 'error', message: String(error) });
  }
  has(level: string, pattern: RegExp): boolean {
    return this.lines.some((l) => l.level === level && pattern.test(l.message));
  }
}
