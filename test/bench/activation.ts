/**
 * The cost of `activate()` on the extension host's main thread while the tokenizer is not built:
 * loading the bundle and running activate against an inert stand-in of the `vscode` module. The
 * same figure in the real extension host comes from the integration suite.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { median, type BenchRow } from './benchRow';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Module = require('node:module') as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };

/**
 * Anything: callable, constructible, every property another inert value, disposable. `names` are
 * reported as own keys, because the bundle's ES-module interop copies only a module's own keys.
 */
function inert(names: readonly string[] = []): unknown {
  const target = function () {
    return undefined;
  };
  const own = (key: string | symbol) => typeof key === 'string' && names.includes(key);
  const handler: ProxyHandler<typeof target> = {
    get: (_t, key) => {
      if (key === 'then') return undefined;
      if (key === Symbol.toPrimitive) return () => '';
      if (key === 'getConfiguration') return () => ({ get: (_k: string, fallback: unknown) => fallback });
      if (key === 'fsPath') return path.join(process.cwd(), '.vscode-test', 'bench-storage');
      return proxy;
    },
    ownKeys: () => [...names, 'prototype'],
    getOwnPropertyDescriptor: (t, key) =>
      key === 'prototype'
        ? Reflect.getOwnPropertyDescriptor(t, key)
        : own(key)
          ? { configurable: true, enumerable: true, writable: true, value: proxy }
          : undefined,
    apply: () => proxy,
    construct: () => proxy as object,
  };
  const proxy: unknown = new Proxy(target, handler);
  return proxy;
}

/** The `vscode` members the bundle uses, read from the bundle itself. */
function vscodeNamesUsedBy(bundle: string): string[] {
  const text = fs.readFileSync(bundle, 'utf8');
  return [...new Set([...text.matchAll(/\bvscode\d*\.([A-Za-z_]\w*)/g)].map((m) => m[1]))];
}

export async function benchActivation(repeats = 15): Promise<BenchRow[]> {
  const bundle = path.resolve(__dirname, '../../../dist/extension.js');
  const vscodeStub = inert(vscodeNamesUsedBy(bundle));
  const originalLoad = Module._load;
  Module._load = (request, parent, isMain) => (request === 'vscode' ? vscodeStub : originalLoad(request, parent, isMain));
  const loadTimes: number[] = [];
  const activateTimes: number[] = [];
  try {
    for (let i = 0; i < repeats; i++) {
      delete require.cache[bundle];
      const t0 = performance.now();
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const ext = require(bundle) as { activate: (context: unknown) => void };
      const t1 = performance.now();
      ext.activate({ subscriptions: [], extensionUri: inert(), storageUri: inert(), globalStorageUri: inert() });
      activateTimes.push(performance.now() - t1);
      loadTimes.push(t1 - t0);
    }
  } finally {
    Module._load = originalLoad;
  }
  const activate = median(activateTimes);
  return [
    {
      group: 'Activation',
      name: 'activate() with the tokenizer not built (main thread)',
      value: activate,
      unit: 'ms',
      goal: '≤ 5 ms',
      met: activate <= 5,
    },
    {
      group: 'Activation',
      name: 'loading dist/extension.js (main thread)',
      value: median(loadTimes),
      unit: 'ms',
      note: 'module evaluation of the bundle; no rank file is loaded',
    },
  ];
}
