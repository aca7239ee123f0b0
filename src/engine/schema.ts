/**
 * Type guards for everything read back from storage. Anything on disk may be old, foreign or
 * corrupt: it goes through one of these before use.
 */
import type { Block, Message, Role } from './types';

/** Bumped whenever a stored shape changes; every stored record carries it. */
export const SCHEMA_VERSION = 1;

const ROLES: readonly Role[] = ['system', 'user', 'assistant', 'tool'];

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isBlock(v: unknown): v is Block {
  if (!isRecord(v)) return false;
  switch (v.type) {
    case 'text':
      return (
        typeof v.text === 'string' &&
        (v.injected === undefined || typeof v.injected === 'boolean') &&
        (v.printed === undefined || typeof v.printed === 'boolean') &&
        (v.requested === undefined || typeof v.requested === 'boolean')
      );
    case 'toolCall':
      return typeof v.id === 'string' && typeof v.name === 'string' && isRecord(v.input);
    case 'toolResult':
      return typeof v.callId === 'string' && typeof v.content === 'string' && typeof v.isError === 'boolean';
    default:
      return false;
  }
}

/** A message's time: finite and within the calendar a `Date` holds (the state's other numbers are checked in model/stateNumbers.ts). */
function isTimeValue(v: unknown): boolean {
  return typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= 8.64e15;
}

export function isMessage(v: unknown): v is Message {
  return (
    isRecord(v) &&
    typeof v.id === 'string' &&
    typeof v.role === 'string' &&
    (ROLES as readonly string[]).includes(v.role) &&
    Array.isArray(v.blocks) &&
    v.blocks.every(isBlock) &&
    (v.at === undefined || isTimeValue(v.at))
  );
}
