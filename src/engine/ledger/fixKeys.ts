/**
 * Which later call fixes an error: one rule for the ledger's tool record and for the span's facts,
 * so an error has one verdict wherever it is shown. An error waits on keys, and a successful call
 * fixes the errors waiting on its keys: a failed command waits for the same command (or one of its
 * commands) to succeed, and a line of commands chained with `&&` that succeeds ran each of them
 * with success; a failed write or edit of a file waits for a write or an edit of that file; a
 * failed read, for the file to be read or written; another tool's failure, for the same call with
 * the same input. A read fixes no edit: looking at a file changes nothing in it.
 */
import { fnv1a } from '../text/fnv';
import type { ToolCallBlock } from '../types';
import { subjectKey } from './commandKey';
import type { ToolActivity } from './toolActivity';

/** A file's key for what a read of it waits on: a read or a write of it. */
const readKey = (path: string) => `read\u0000${subjectKey(path)}`;
/** Another tool's key: its name and a hash of its input, as the call gave it (an input can be a long prompt). */
const callKey = (call: ToolCallBlock) => `call\u0000${call.name}\u0000${(fnv1a(JSON.stringify(call.input)) >>> 0).toString(36)}`;
/** Commands chained so that the line succeeds only when each of them does. */
const AND_CHAIN = /\s&&\s/;

/** The keys of a command step: the whole line, and each of its commands. */
function commandKeys(commands: readonly string[]): string[] {
  const subject = commands.join(' ; ');
  return commands.length === 1 ? [subjectKey(subject)] : [...new Set([subjectKey(subject), ...commands.map(subjectKey)])];
}

/** The keys an error of a failed call with this activity waits on. */
export function waitingKeys(activity: ToolActivity, call?: ToolCallBlock): string[] {
  if (activity.kind === 'command') return commandKeys(activity.commands);
  if (activity.kind === 'file') return activity.paths.map(activity.action === 'read' ? readKey : subjectKey);
  return call === undefined ? [] : [callKey(call)];
}

/** The keys a successful call with this activity fixes. */
export function fixingKeys(activity: ToolActivity, call?: ToolCallBlock): string[] {
  if (activity.kind === 'command') {
    const chained = activity.commands.flatMap((c) => (AND_CHAIN.test(c) && !c.includes('||') ? c.split(AND_CHAIN).map(subjectKey) : []));
    return [...new Set([...commandKeys(activity.commands), ...chained])];
  }
  if (activity.kind === 'other') return call === undefined ? [] : [callKey(call)];
  if (activity.action === 'deleted') return [];
  if (activity.action === 'read') return activity.paths.map(readKey);
  return activity.paths.flatMap((path) => [subjectKey(path), readKey(path)]);
}
