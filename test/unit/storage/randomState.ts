/** Random immutable updates of a nested JSON-like state, for checking the journal against a plain rewrite. */
import { appended } from '../../../src/engine/appendedList';

export type Random = () => number;

/** A state shaped like a session's: lists that grow, nested records, optional keys, scalars. */
export interface FuzzState {
  readonly [key: string]: unknown;
}

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];

function randomScalar(random: Random): unknown {
  return pick(random, [
    () => Math.floor(random() * 1000),
    () => `text ${Math.floor(random() * 1e6).toString(36)} "quoted" \\ é 😀`,
    () => random() < 0.5,
    () => null,
    () => undefined,
    () => random() * 1e-3,
  ])();
}

function randomValue(random: Random, depth: number): unknown {
  if (depth <= 0 || random() < 0.4) return randomScalar(random);
  if (random() < 0.5) return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth - 1));
  let out: Record<string, unknown> = {};
  // Computed keys in a literal are own keys, "__proto__" included, as JSON.parse makes them.
  for (let i = Math.floor(random() * 4); i > 0; i--) {
    out = { ...out, [pick(random, ['a', 'b', 'c', 'd', '__proto__', 'x y'])]: randomValue(random, depth - 1) };
  }
  return out;
}

/** One immutable change somewhere in the value: everything off the changed path keeps its identity. */
export function randomUpdate(random: Random, value: unknown, depth = 4): unknown {
  if (Array.isArray(value)) {
    const roll = random();
    if (roll < 0.45) {
      const added = Array.from({ length: 1 + Math.floor(random() * 3) }, () => randomValue(random, 2));
      // Half the appends as the session makes its long lists, remembered as appends.
      return roll < 0.225 ? appended(value, added) : [...value, ...added];
    }
    if (roll < 0.6 && value.length > 0) return value.slice(0, Math.floor(random() * value.length));
    if (roll < 0.7 && value.length > 0) return value.slice(1 + Math.floor(random() * value.length));
    if (roll < 0.8 && value.length > 1) {
      // A list kept to its newest entries: the oldest go as new ones come.
      const slid = [...value.slice(1 + Math.floor(random() * (value.length - 1))), randomValue(random, 2)];
      return slid.length > 1 && random() < 0.3 ? [randomUpdate(random, slid[0], depth - 1), ...slid.slice(1)] : slid;
    }
    if (value.length > 0 && depth > 0) {
      const i = Math.floor(random() * value.length);
      const copy = [...value];
      copy[i] = randomUpdate(random, value[i], depth - 1);
      return copy;
    }
    return [randomValue(random, 2)];
  }
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    const roll = random();
    if (roll < 0.15 && keys.length > 0) {
      const { [pick(random, keys)]: _gone, ...rest } = record;
      return rest;
    }
    if (roll < 0.25 && keys.length > 0) return { ...record, [pick(random, keys)]: undefined };
    if (roll < 0.4 || keys.length === 0 || depth <= 0) {
      return { ...record, [pick(random, ['a', 'b', 'c', 'new', 'x y'])]: randomValue(random, 2) };
    }
    const key = pick(random, keys);
    return { ...record, [key]: randomUpdate(random, record[key], depth - 1) };
  }
  return random() < 0.5 ? randomValue(random, 2) : randomScalar(random);
}

/** A starting state with the shape of a session: lists, a nested record, scalars. */
export function initialFuzzState(): FuzzState {
  return {
    schema: 1,
    id: 's',
    title: '',
    active: [],
    history: [],
    ledger: { goals: [], userMessages: [], record: { files: [] } },
    count: 0,
  };
}

/** What writing a value as JSON and reading it back gives. */
export const jsonForm = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
