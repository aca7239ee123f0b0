/** Stored sessions for the recovery tests: a realistic server log, a source file and an archive. */
import { Archive } from '../../../src/engine/archive';
import { sessionPaths } from '../../../src/engine/model/sessionPaths';
import { MemoryStore } from '../../../src/engine/storage/memoryStore';
import { message, textBlock, toolCallBlock, toolResultBlock, type Message } from '../../../src/engine/types';

export const SESSION = 's-20260121-103522-test';
export const OTHER_SESSION = 's-20260122-090000-other';
export const LOG_NAME = '20260121-104107-332_run_server_call_7.txt';
export const SOURCE_NAME = '20260121-104500-000_read_file_call_9.txt';
export const offloadedPath = (name: string, sessionId = SESSION): string => `${sessionPaths(sessionId).offloaded}/${name}`;

/** Line of the log where the connection error and its stack trace start. */
export const ERROR_LINE = 287;
/** Line of the log naming `handleRequest` in `src/app/server.ts`. */
export const HANDLER_LINE = ERROR_LINE + 2;

/**
 * 420 lines of a server's output: routine request lines everywhere (mentioning other files and
 * the word "server"), and one connection failure deep inside.
 */
export function serverLog(): string {
  const lines: string[] = [];
  for (let n = 1; n <= 420; n++) {
    const second = String(n % 60).padStart(2, '0');
    if (n === ERROR_LINE) lines.push(`2026-01-21T10:41:${second}.332Z ERROR [db] connect ECONNREFUSED 127.0.0.1:5432`);
    else if (n === ERROR_LINE + 1) lines.push('    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1607:16)');
    else if (n === HANDLER_LINE) lines.push('    at handleRequest (src/app/server.ts:118:23)');
    else if (n === ERROR_LINE + 3) lines.push('    at processTicksAndRejections (node:internal/process/task_queues:95:5)');
    else if (n % 50 === 0) lines.push(`2026-01-21T10:41:${second}.000Z INFO [server] reloaded src/app/client.ts and src/app/routes.ts`);
    else lines.push(`2026-01-21T10:41:${second}.${String(n).padStart(3, '0')}Z INFO [http] GET /api/users/${n} 200 ${(n * 7) % 90}ms`);
  }
  return `${lines.join('\n')}\n`;
}

/** A source file as a read_file tool returned it. */
export function routerSource(): string {
  return [
    "import { createServer } from 'node:http';",
    "import { loadConfig } from './config';",
    '',
    'export function startRouter(port: number) {',
    '  const config = loadConfig();',
    '  return createServer((req, res) => {',
    "    res.setHeader('x-powered-by', config.name);",
    '    res.end(JSON.stringify({ ok: true }));',
    '  }).listen(port);',
    '}',
    '',
  ].join('\n');
}

/** A short conversation: the user asks, the agent runs the server, reads a file and explains. */
export function conversation(): Message[] {
  return [
    message('m1', 'user', [textBlock('The API returns 500 on every call since this morning. Can you find out why?')]),
    message('m2', 'assistant', [
      textBlock('Let me start the server and watch its output.'),
      toolCallBlock('call_7', 'run_server', { command: 'npm run dev', cwd: 'services/api' }),
    ]),
    message('m3', 'tool', [toolResultBlock('call_7', 'Server exited with code 1 after a database error.', true, 'run_server')]),
    message('m4', 'assistant', [
      toolCallBlock('call_8', 'write_file', {
        path: 'services/api/.env.local',
        content: 'DATABASE_URL=postgres://localhost:5433/app\nPOOL_SIZE=4\n',
      }),
    ]),
    message('m5', 'assistant', [
      textBlock('The database refused the connection: Postgres listens on port 5433 here, not 5432. I pointed DATABASE_URL at 5433.'),
    ]),
  ];
}

/** A store holding one session with the log and the source file offloaded and the conversation archived. */
export async function storedSession(): Promise<MemoryStore> {
  const store = new MemoryStore();
  await store.write(offloadedPath(LOG_NAME), serverLog());
  await store.write(offloadedPath(SOURCE_NAME), routerSource());
  await new Archive(store, sessionPaths(SESSION).archive).append(conversation());
  return store;
}
