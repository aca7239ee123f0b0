/**
 * A CPU profile of the extension host's main thread, taken from inside it with node's inspector, and the CPU time
 * that one extension's code used in given windows of time: a sample counts for the extension when any frame of its
 * stack is in the extension's folder (what its code calls, VS Code's API included, is its cost). Work on other
 * threads (ctx's tokenizer worker) is not in it.
 */
import * as fs from 'fs';
import * as inspector from 'inspector';

/** The parts of a V8 CPU profile read here (times in microseconds). */
interface Profile {
  readonly nodes: readonly { id: number; callFrame: { url: string; functionName: string; lineNumber?: number }; children?: number[] }[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** A running profile. */
export interface RunningProfile {
  /** Stops it; then `cpuMsIn` tells what an extension used. */
  stop(): Promise<TakenProfile>;
}

/** A finished profile. */
export interface TakenProfile {
  /** CPU milliseconds of the code under `folder` in each `[fromMs, toMs)` window (`Date.now()` times). */
  cpuMsIn(folder: string, windows: readonly (readonly [number, number])[]): number[];
  /** CPU milliseconds of the whole thread (every sample but idle ones) in each window. */
  busyMsIn(windows: readonly (readonly [number, number])[]): number[];
  /**
   * Where the code under `folder` spent its CPU in the given windows together: milliseconds per function that
   * was running (the sample's own frame: `name (file:line)`), the largest `top` first.
   */
  functionsIn(folder: string, windows: readonly (readonly [number, number])[], top: number): [string, number][];
  /** Writes the profile as a `.cpuprofile` file, for DevTools or any reader of V8 profiles. */
  write(file: string): void;
}

function post<T>(session: inspector.Session, method: string, params: object = {}): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))));
}

/** Starts sampling every `intervalUs` microseconds. */
export async function startProfile(intervalUs = 1000): Promise<RunningProfile> {
  const session = new inspector.Session();
  session.connect();
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.setSamplingInterval', { interval: intervalUs });
  await post(session, 'Profiler.start');
  // The profile's clock is V8's: its start is taken as this moment, so sample times become `Date.now()` times.
  const startedAtMs = Date.now();
  return {
    stop: async () => {
      const { profile } = await post<{ profile: Profile }>(session, 'Profiler.stop');
      await post(session, 'Profiler.disable');
      session.disconnect();
      return taken(profile, startedAtMs);
    },
  };
}

function taken(profile: Profile, startedAtMs: number): TakenProfile {
  /** Calls `each` with the node and the milliseconds of every counted sample that falls in one of `windows`, and its window. */
  const visit = (
    counted: Set<number>,
    windows: readonly (readonly [number, number])[],
    each: (node: number, ms: number, w: number) => void,
  ) => {
    let at = profile.startTime;
    for (let i = 0; i < profile.samples.length; i++) {
      const delta = profile.timeDeltas[i] ?? 0;
      at += delta;
      if (!counted.has(profile.samples[i])) continue;
      const ms = startedAtMs + (at - profile.startTime) / 1000;
      const w = windows.findIndex(([from, to]) => ms >= from && ms < to);
      // A sample stands for the time since the one before it.
      if (w >= 0) each(profile.samples[i], delta / 1000, w);
    }
  };
  const msIn = (counted: Set<number>, windows: readonly (readonly [number, number])[]) => {
    const totals = windows.map(() => 0);
    visit(counted, windows, (_node, ms, w) => (totals[w] += ms));
    return totals;
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  return {
    cpuMsIn: (folder, windows) => msIn(nodesUnder(profile, folder), windows),
    busyMsIn: (windows) => msIn(new Set(profile.nodes.filter((n) => n.callFrame.functionName !== '(idle)').map((n) => n.id)), windows),
    write: (file) => fs.writeFileSync(file, JSON.stringify(profile)),
    functionsIn: (folder, windows, top) => {
      const totals = new Map<string, number>();
      visit(nodesUnder(profile, folder), windows, (node, ms) => {
        const frame = byId.get(node)?.callFrame;
        const name = frame ? `${frame.functionName || '(anonymous)'} (${frame.url.split('/').pop() ?? ''}:${frame.lineNumber ?? 0})` : '?';
        totals.set(name, (totals.get(name) ?? 0) + ms);
      });
      return [...totals.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([name, ms]) => [name, Math.round(ms * 10) / 10]);
    },
  };
}

/** The ids of the nodes whose stack holds a frame of a script under `folder`. */
function nodesUnder(profile: Profile, folder: string): Set<number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const children = new Set(profile.nodes.flatMap((n) => n.children ?? []));
  const found = new Set<number>();
  const walk = (id: number, under: boolean) => {
    const node = byId.get(id);
    if (!node) return;
    const here = under || node.callFrame.url.includes(folder);
    if (here) found.add(id);
    for (const child of node.children ?? []) walk(child, here);
  };
  for (const root of profile.nodes.filter((n) => !children.has(n.id))) walk(root.id, false);
  return found;
}
