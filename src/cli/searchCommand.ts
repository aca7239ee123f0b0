/** `search <dir> "<query>" [--top <n>] [--json]`: the recovery search over a replay's storage. */
import * as fs from 'node:fs/promises';
import type { Store } from '../engine/host/ports';
import { FileStore, isSessionId, type RecoveryHit, RecoveryIndex, SESSIONS_FOLDER } from '../engine/host/storage';
import { InputError } from './cliErrors';
import { positiveInteger, type CommandSpec, type ParsedCommand } from './commandLine';
import { fileSystemReason } from './readTranscriptFile';
import type { Terminal } from './terminal';
import { DEFAULT_SEARCH_TOP } from './usage';

export const SEARCH_COMMAND: CommandSpec = {
  name: 'search',
  positionals: ['dir', 'query'],
  lastTakesRest: true,
  options: ['top'],
  switches: ['json'],
};

export async function runSearch(parsed: ParsedCommand, terminal: Terminal): Promise<void> {
  const [folder, query] = parsed.positionals;
  const top = parsed.options.has('top') ? positiveInteger('top', parsed.options.get('top') ?? '') : DEFAULT_SEARCH_TOP;
  if (query.trim().length === 0) throw new InputError('The query is empty: give the words, identifiers or phrase to look for.');
  const store = new FileStore(folder);
  const sessionIds = await replayedSessions(folder, store);
  const index = await RecoveryIndex.build(store, sessionIds);
  const hits = await index.search(query, { top });
  if (parsed.switches.has('json')) {
    terminal.out(`${JSON.stringify({ hits }, null, 2)}\n`);
    return;
  }
  terminal.out(renderHits(hits, query, store));
  for (const note of index.notes) terminal.err(`note: ${note.message}\n`);
}

/** The sessions stored under `<dir>/sessions/`; throws an `InputError` when there are none. */
async function replayedSessions(folder: string, store: Store): Promise<string[]> {
  try {
    if (!(await fs.stat(folder)).isDirectory()) {
      throw new InputError(`${folder} is a file; search needs the folder a replay wrote (its --out).`);
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`Cannot search ${folder}: ${fileSystemReason(e)}.`);
  }
  const ids = (await store.list(SESSIONS_FOLDER)).filter(isSessionId);
  if (ids.length === 0) {
    throw new InputError(
      `${folder} holds no replayed session (nothing in ${store.locate(SESSIONS_FOLDER)}); run replay with --out ${folder} first.`,
    );
  }
  return ids;
}

function renderHits(hits: readonly RecoveryHit[], query: string, store: Store): string {
  if (hits.length === 0) return `No hits for "${query}".\n`;
  const lines = [`${hits.length} hit${hits.length === 1 ? '' : 's'} for "${query}", best first:`];
  hits.forEach((hit, i) => {
    const about = [hit.role, hit.toolName].filter((x) => x !== undefined).join(', ');
    const line = hit.matchLine === undefined ? '' : ` (match at line ${hit.matchLine})`;
    lines.push(
      '',
      `${i + 1}. ${hit.source} · ${hit.ref}${line}${about ? ` · ${about}` : ''} · score ${hit.score.toFixed(2)}`,
      `   ${hit.excerpt}`,
    );
    if (hit.location) lines.push(`   ${store.locate(hit.location.file)}`);
  });
  return `${lines.join('\n')}\n`;
}
