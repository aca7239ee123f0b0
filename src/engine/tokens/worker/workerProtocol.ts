import type { EncodingName } from '../../ports';
import { isRecord } from '../../schema';

/**
 * Messages between the extension host and the tokenizer worker (`tokenizerWorker.ts`).
 * Both sides check what they receive: a message crossing threads is untyped data.
 */

/** Passed as `workerData` when the worker starts. */
export interface WorkerStart {
  readonly encoding: EncodingName;
}

/** Host to worker: count these texts. */
export interface CountRequest {
  readonly id: number;
  readonly texts: readonly string[];
}

/** Worker to host. */
export type WorkerReply =
  | { readonly type: 'built'; readonly buildMs: number }
  | { readonly type: 'buildFailed'; readonly message: string }
  | { readonly type: 'counts'; readonly id: number; readonly counts: readonly number[] }
  | { readonly type: 'countFailed'; readonly id: number; readonly message: string };

const ENCODINGS: readonly string[] = ['o200k_base', 'cl100k_base'] satisfies EncodingName[];

export function isWorkerStart(value: unknown): value is WorkerStart {
  return isRecord(value) && typeof value.encoding === 'string' && ENCODINGS.includes(value.encoding);
}

export function isCountRequest(value: unknown): value is CountRequest {
  return isRecord(value) && typeof value.id === 'number' && Array.isArray(value.texts) && value.texts.every((t) => typeof t === 'string');
}

export function isWorkerReply(value: unknown): value is WorkerReply {
  if (!isRecord(value)) return false;
  switch (value.type) {
    case 'built':
      return typeof value.buildMs === 'number';
    case 'buildFailed':
      return typeof value.message === 'string';
    case 'counts':
      return typeof value.id === 'number' && Array.isArray(value.counts);
    case 'countFailed':
      return typeof value.id === 'number' && typeof value.message === 'string';
    default:
      return false;
  }
}
