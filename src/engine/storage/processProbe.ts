/** Who this process is, and whether another process on this machine still runs: what a lock needs to know. */
import * as os from 'node:os';

export interface ProcessProbe {
  readonly pid: number;
  readonly host: string;
  /** False only when the process is known to be gone; true when it runs or cannot be told. */
  isAlive(pid: number): boolean;
}

/** This process, asking the operating system (signal 0 tests for a process without touching it). */
export function localProcessProbe(): ProcessProbe {
  return {
    pid: process.pid,
    host: os.hostname(),
    isAlive(pid: number): boolean {
      try {
        process.kill(pid, 0);
        return true;
      } catch (e) {
        // EPERM: it runs, under another user.
        return (e as { code?: unknown }).code !== 'ESRCH';
      }
    },
  };
}
