// TEST ONLY: the small project the `npm start` demo works on (test/extensions/standin/demo.js), written into the
// workspace before the demo plays: a TypeScript service whose CI broke when `npm install` took a new major version of
// its logging library. Its files read as a real project's do, so what ctx keeps, offloads and summarizes of them is
// what it would keep of a real session: the CI logs are what npm and tsc print, not filler.
'use strict';

/** The project's folder in the workspace. */
const DEMO_PROJECT = 'orders-api';

const PACKAGE_JSON = `{
  "name": "orders-api",
  "version": "1.4.0",
  "private": true,
  "scripts": {
    "build": "tsc -p tsconfig.build.json",
    "test": "vitest run",
    "start": "node dist/server.js"
  },
  "dependencies": {
    "fastify": "^4.28.1",
    "logkit": "^2.9.0 || ^3.0.0",
    "pg": "^8.12.0",
    "zod": "^3.23.8"
  },
  "devDependencies": {
    "@types/node": "^20.14.10",
    "@types/pg": "^8.11.6",
    "typescript": "~5.5.3",
    "vitest": "^2.0.3"
  }
}
`;

const CI_YML = `name: CI
on:
  push:
    branches: [main]
  pull_request:

jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm install --loglevel http
      - run: npm run build
      - run: npm test
`;

const LEVELS_TS = `/** Our own log levels: numbers, so that a level can be compared with \`<\`. */
export enum Level {
  Debug = 10,
  Info = 20,
  Warn = 30,
  Error = 40,
}
`;

const LOGGER_TS = `import { LogLevel, createLogger, type Transport } from 'logkit';
import { Level } from './levels';

export interface LoggerOptions {
  name: string;
  transport?: Transport;
  /** Requests slower than this are logged at Warn. */
  slowRequestMs?: number;
}

/** logkit's level as ours: both are numbers in logkit 2. */
function toLevel(level: LogLevel): Level {
  return level as Level;
}

export function isEnabled(current: LogLevel, wanted: Level): boolean {
  return toLevel(current) <= wanted;
}

export function makeLogger(options: LoggerOptions) {
  const logger = createLogger({
    name: options.name,
    level: process.env.LOG_LEVEL,
    transport: options.transport,
  });
  const slowMs = options.slowRequestMs ?? 500;
  return {
    debug: (msg: string, fields?: object) => isEnabled(logger.level, Level.Debug) && logger.debug(msg, fields),
    info: (msg: string, fields?: object) => logger.info(msg, fields),
    request(method: string, url: string, status: number, ms: number) {
      const level = status >= 500 ? Level.Error : ms > slowMs ? Level.Warn : Level.Info;
      logger.log(level as unknown as LogLevel, \`\${method} \${url} \${status} \${ms}ms\`);
    },
    error: (msg: string, err: unknown) => logger.error(msg, { err }),
  };
}
`;

const SERVER_TS = `import Fastify from 'fastify';
import { Pool } from 'pg';
import { makeLogger } from './logger';
import { registerOrderRoutes } from './routes/orders';

const log = makeLogger({ name: 'orders-api', slowRequestMs: Number(process.env.SLOW_REQUEST_MS ?? 500) });

export async function start(port = Number(process.env.PORT ?? 8080)) {
  const db = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const app = Fastify({ logger: false });

  app.addHook('onResponse', async (request, reply) => {
    log.request(request.method, request.url, reply.statusCode, Math.round(reply.elapsedTime));
  });
  app.setErrorHandler((err, request, reply) => {
    log.error(\`\${request.method} \${request.url} failed\`, err);
    reply.status(err.statusCode ?? 500).send({ error: err.statusCode ? err.message : 'internal error' });
  });

  registerOrderRoutes(app, db, log);
  app.get('/health', async () => ({ ok: true }));

  await app.listen({ port, host: '0.0.0.0' });
  log.info('listening', { port });
  return app;
}

if (require.main === module) {
  start().catch((err) => {
    log.error('could not start', err);
    process.exit(1);
  });
}
`;

const ORDERS_TS = `import type { FastifyInstance } from 'fastify';
import type { Pool } from 'pg';
import { z } from 'zod';
import type { makeLogger } from '../logger';

const NewOrder = z.object({
  customerId: z.string().uuid(),
  items: z
    .array(z.object({ sku: z.string().min(1), quantity: z.number().int().positive() }))
    .min(1)
    .max(100),
  note: z.string().max(500).optional(),
});

export function registerOrderRoutes(app: FastifyInstance, db: Pool, log: ReturnType<typeof makeLogger>) {
  app.post('/orders', async (request, reply) => {
    const parsed = NewOrder.safeParse(request.body);
    if (!parsed.success) return reply.status(400).send({ error: 'invalid order', issues: parsed.error.issues });
    const { customerId, items, note } = parsed.data;
    const client = await db.connect();
    try {
      await client.query('BEGIN');
      const order = await client.query('INSERT INTO orders (customer_id, note) VALUES ($1, $2) RETURNING id', [customerId, note ?? null]);
      for (const item of items) {
        await client.query('INSERT INTO order_items (order_id, sku, quantity) VALUES ($1, $2, $3)', [order.rows[0].id, item.sku, item.quantity]);
      }
      await client.query('COMMIT');
      log.debug('order created', { id: order.rows[0].id, items: items.length });
      return reply.status(201).send({ id: order.rows[0].id });
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    } finally {
      client.release();
    }
  });

  app.get('/orders/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const order = await db.query('SELECT id, customer_id, note, created_at FROM orders WHERE id = $1', [id]);
    if (order.rowCount === 0) return reply.status(404).send({ error: 'no such order' });
    const items = await db.query('SELECT sku, quantity FROM order_items WHERE order_id = $1', [id]);
    return { ...order.rows[0], items: items.rows };
  });
}
`;

const MIGRATION_SQL = `-- 001_orders.sql: the orders schema (applied by scripts/migrate.ts in a transaction)
CREATE EXTENSION IF NOT EXISTS pgcrypto;

CREATE TABLE customers (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email       text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE orders (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  customer_id  uuid NOT NULL REFERENCES customers (id),
  note         text CHECK (char_length(note) <= 500),
  status       text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid', 'shipped', 'cancelled')),
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX orders_customer_id_idx ON orders (customer_id, created_at DESC);

CREATE TABLE order_items (
  order_id  uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  sku       text NOT NULL,
  quantity  integer NOT NULL CHECK (quantity > 0),
  PRIMARY KEY (order_id, sku)
);
`;

const ORDERS_TEST_TS = `import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start } from '../src/server';
import { resetDatabase, seedCustomer } from './db';

let app: Awaited<ReturnType<typeof start>>;
let customerId: string;

beforeAll(async () => {
  await resetDatabase();
  customerId = await seedCustomer('ada@example.com');
  app = await start(0);
});
afterAll(() => app.close());

describe('POST /orders', () => {
  it('creates an order with its items', async () => {
    const res = await app.inject({ method: 'POST', url: '/orders', payload: { customerId, items: [{ sku: 'A-1', quantity: 2 }] } });
    expect(res.statusCode).toBe(201);
    const order = await app.inject({ method: 'GET', url: \`/orders/\${res.json().id}\` });
    expect(order.json().items).toEqual([{ sku: 'A-1', quantity: 2 }]);
  });

  it('rejects an order without items', async () => {
    const res = await app.inject({ method: 'POST', url: '/orders', payload: { customerId, items: [] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid order');
  });

  it('rolls back when an item repeats a sku', async () => {
    const items = [{ sku: 'A-1', quantity: 1 }, { sku: 'A-1', quantity: 3 }];
    const res = await app.inject({ method: 'POST', url: '/orders', payload: { customerId, items } });
    expect(res.statusCode).toBe(500);
  });
});
`;

const BUILD_LOG_1842 = `2025-06-12T07:41:02.1183420Z ##[group]Run npm run build
2025-06-12T07:41:02.1184011Z npm run build
2025-06-12T07:41:02.1201873Z shell: /usr/bin/bash -e {0}
2025-06-12T07:41:02.1202257Z ##[endgroup]
2025-06-12T07:41:02.4519032Z
2025-06-12T07:41:02.4519618Z > orders-api@1.4.0 build
2025-06-12T07:41:02.4520035Z > tsc -p tsconfig.build.json
2025-06-12T07:41:02.4520296Z
2025-06-12T07:41:09.8827360Z src/logger.ts(13,3): error TS2322: Type 'LogLevel' is not assignable to type 'Level'.
2025-06-12T07:41:09.8828121Z   Type '"debug"' is not assignable to type 'Level'.
2025-06-12T07:41:09.8831640Z src/logger.ts(23,5): error TS2322: Type 'string | undefined' is not assignable to type 'LogLevel | undefined'.
2025-06-12T07:41:09.8832211Z   Type 'string' is not assignable to type 'LogLevel | undefined'.
2025-06-12T07:41:09.8835597Z src/logger.ts(34,18): error TS2352: Conversion of type 'Level' to type 'LogLevel' may be a mistake because neither type sufficiently overlaps with the other.
2025-06-12T07:41:09.9421337Z
2025-06-12T07:41:09.9422004Z Found 3 errors in the same file, starting at: src/logger.ts:13
2025-06-12T07:41:09.9422311Z
2025-06-12T07:41:09.9710542Z ##[error]Process completed with exit code 2.
`;

/** Packages an install of this project fetches, with the version the registry served. */
const PACKAGES = [
  ['fastify', '4.28.1'],
  ['@fastify/ajv-compiler', '3.6.0'],
  ['@fastify/error', '3.4.1'],
  ['@fastify/fast-json-stringify-compiler', '4.3.0'],
  ['abstract-logging', '2.0.1'],
  ['avvio', '8.3.2'],
  ['fast-content-type-parse', '1.1.0'],
  ['fast-json-stringify', '5.16.1'],
  ['find-my-way', '8.2.0'],
  ['light-my-request', '5.13.0'],
  ['pino', '9.3.1'],
  ['process-warning', '3.0.0'],
  ['proxy-addr', '2.0.7'],
  ['rfdc', '1.4.1'],
  ['secure-json-parse', '2.7.0'],
  ['semver', '7.6.2'],
  ['toad-cache', '3.7.0'],
  ['logkit', '3.0.0'],
  ['logkit-transport-stdout', '3.0.0'],
  ['pg', '8.12.0'],
  ['pg-connection-string', '2.6.4'],
  ['pg-pool', '3.6.2'],
  ['pg-protocol', '1.6.1'],
  ['pg-types', '2.2.0'],
  ['pgpass', '1.0.5'],
  ['postgres-array', '2.0.0'],
  ['postgres-bytea', '1.0.0'],
  ['postgres-date', '1.0.7'],
  ['postgres-interval', '1.2.0'],
  ['split2', '4.2.0'],
  ['zod', '3.23.8'],
  ['typescript', '5.5.3'],
  ['vitest', '2.0.3'],
  ['@vitest/expect', '2.0.3'],
  ['@vitest/runner', '2.0.3'],
  ['@vitest/snapshot', '2.0.3'],
  ['@vitest/spy', '2.0.3'],
  ['@vitest/utils', '2.0.3'],
  ['vite', '5.3.4'],
  ['vite-node', '2.0.3'],
  ['esbuild', '0.21.5'],
  ['@esbuild/linux-x64', '0.21.5'],
  ['rollup', '4.18.1'],
  ['@rollup/rollup-linux-x64-gnu', '4.18.1'],
  ['postcss', '8.4.39'],
  ['nanoid', '3.3.7'],
  ['picocolors', '1.0.1'],
  ['source-map-js', '1.2.0'],
  ['chai', '5.1.1'],
  ['assertion-error', '2.0.1'],
  ['check-error', '2.1.1'],
  ['deep-eql', '5.0.2'],
  ['loupe', '3.1.1'],
  ['pathval', '2.0.0'],
  ['debug', '4.3.5'],
  ['ms', '2.1.2'],
  ['magic-string', '0.30.10'],
  ['@jridgewell/sourcemap-codec', '1.5.0'],
  ['pathe', '1.1.2'],
  ['std-env', '3.7.0'],
  ['tinybench', '2.8.0'],
  ['tinypool', '1.0.0'],
  ['tinyrainbow', '1.2.0'],
  ['why-is-node-running', '2.3.0'],
  ['siginfo', '2.0.0'],
  ['stackback', '0.0.2'],
  ['execa', '8.0.1'],
  ['cross-spawn', '7.0.3'],
  ['get-stream', '8.0.1'],
  ['human-signals', '5.0.0'],
  ['is-stream', '3.0.0'],
  ['merge-stream', '2.0.0'],
  ['npm-run-path', '5.3.0'],
  ['onetime', '6.0.0'],
  ['signal-exit', '4.1.0'],
  ['strip-final-newline', '3.0.0'],
  ['which', '2.0.2'],
  ['isexe', '2.0.0'],
  ['path-key', '3.1.1'],
  ['shebang-command', '2.0.0'],
  ['shebang-regex', '3.0.0'],
  ['@types/node', '20.14.10'],
  ['undici-types', '5.26.5'],
  ['@types/pg', '8.11.6'],
  ['ajv', '8.16.0'],
  ['fast-deep-equal', '3.1.3'],
  ['json-schema-traverse', '1.0.0'],
  ['require-from-string', '2.0.2'],
  ['uri-js', '4.4.1'],
  ['punycode', '2.3.1'],
  ['ajv-formats', '2.1.1'],
  ['fast-uri', '2.4.0'],
];

/** `npm install --loglevel http` of the failing run: a line for each request to the registry, then npm's summary. */
function installLog1842() {
  const lines = [
    '2025-06-12T07:40:21.0561190Z ##[group]Run npm install --loglevel http',
    '2025-06-12T07:40:21.0561702Z npm install --loglevel http',
    '2025-06-12T07:40:21.0579931Z ##[endgroup]',
    '2025-06-12T07:40:21.9920415Z npm http fetch GET 200 https://registry.npmjs.org/npm 212ms',
  ];
  let ms = 40;
  for (let round = 0; round < 6; round++) {
    for (const [i, [name, version]] of PACKAGES.entries()) {
      ms = ((ms * 37 + i * 11 + round * 7) % 390) + 9;
      const t = `2025-06-12T07:40:${String(22 + Math.floor((round * PACKAGES.length + i) / 40)).padStart(2, '0')}.${String(100000 + i * 7919 + round * 104729).slice(-6)}0Z`;
      const tarball = name.startsWith('@') ? `${name}/-/${name.split('/')[1]}-${version}.tgz` : `${name}/-/${name}-${version}.tgz`;
      const what =
        round % 2 === 0
          ? `https://registry.npmjs.org/${name} ${ms}ms (cache ${round === 0 ? 'miss' : 'revalidated'})`
          : `https://registry.npmjs.org/${tarball} ${ms}ms (cache miss)`;
      lines.push(`${t} npm http fetch GET 200 ${what}`);
    }
  }
  lines.push(
    '2025-06-12T07:40:58.4120033Z npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory. Do not use it.',
    '2025-06-12T07:40:58.4121781Z npm warn deprecated glob@7.2.3: Glob versions prior to v9 are no longer supported',
    '2025-06-12T07:41:01.2207717Z npm warn logkit@3.0.0: LogLevel is now a string union ("debug" | "info" | "warn" | "error"); numeric levels were removed (see MIGRATING.md)',
    '2025-06-12T07:41:01.7719342Z ',
    '2025-06-12T07:41:01.7720015Z added 214 packages, changed 37 packages, and audited 215 packages in 40s',
    '2025-06-12T07:41:01.7721093Z ',
    '2025-06-12T07:41:01.7721500Z 41 packages are looking for funding',
    '2025-06-12T07:41:01.7721806Z   run `npm fund` for details',
    '2025-06-12T07:41:01.7859006Z ',
    '2025-06-12T07:41:01.7859620Z found 0 vulnerabilities',
  );
  return lines.join('\n') + '\n';
}

const INSTALL_LOG_1841 = `2025-06-11T16:02:11.3380415Z ##[group]Run npm ci
2025-06-11T16:02:11.3381004Z npm ci
2025-06-11T16:02:11.3399127Z ##[endgroup]
2025-06-11T16:02:26.9012204Z
2025-06-11T16:02:26.9013011Z added 214 packages, and audited 215 packages in 15s
2025-06-11T16:02:26.9013830Z
2025-06-11T16:02:26.9014211Z 41 packages are looking for funding
2025-06-11T16:02:26.9014503Z   run \`npm fund\` for details
2025-06-11T16:02:26.9140077Z
2025-06-11T16:02:26.9140551Z found 0 vulnerabilities
2025-06-11T16:02:27.0118842Z ##[group]Run npm ls logkit
2025-06-11T16:02:27.6621390Z orders-api@1.4.0 /home/runner/work/orders-api/orders-api
2025-06-11T16:02:27.6622015Z └── logkit@2.9.4
2025-06-11T16:02:27.6702231Z ##[endgroup]
`;

/** The project's files, by path in the workspace. */
function demoProjectFiles() {
  return {
    [`${DEMO_PROJECT}/package.json`]: PACKAGE_JSON,
    [`${DEMO_PROJECT}/.github/workflows/ci.yml`]: CI_YML,
    [`${DEMO_PROJECT}/src/levels.ts`]: LEVELS_TS,
    [`${DEMO_PROJECT}/src/logger.ts`]: LOGGER_TS,
    [`${DEMO_PROJECT}/src/server.ts`]: SERVER_TS,
    [`${DEMO_PROJECT}/src/routes/orders.ts`]: ORDERS_TS,
    [`${DEMO_PROJECT}/migrations/001_orders.sql`]: MIGRATION_SQL,
    [`${DEMO_PROJECT}/test/orders.test.ts`]: ORDERS_TEST_TS,
    [`${DEMO_PROJECT}/ci-logs/1842-build.log`]: BUILD_LOG_1842,
    [`${DEMO_PROJECT}/ci-logs/1842-install.log`]: installLog1842(),
    [`${DEMO_PROJECT}/ci-logs/1841-install.log`]: INSTALL_LOG_1841,
  };
}

module.exports = { DEMO_PROJECT, demoProjectFiles };
