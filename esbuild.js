// Bundles the extension the way the official extension template does: one context per entry
// point, `--production` to minify, `--watch` to rebuild on change, `vscode` left external.
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints build errors in the `file:line:col` shape the problem matcher understands. */
const problemMatcherPlugin = {
  name: 'esbuild-problem-matcher',
  setup(build) {
    build.onStart(() => {
      if (watch) console.log('[watch] build started');
    });
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (watch) console.log('[watch] build finished');
    });
  },
};

const shared = {
  bundle: true,
  format: 'cjs',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  platform: 'node',
  target: 'node20',
  external: ['vscode'],
  logLevel: 'silent',
  plugins: [problemMatcherPlugin],
};

const entryPoints = [
  // The extension itself: activation must stay cheap, so it never bundles a rank file.
  { in: 'src/extension.ts', out: 'extension' },
  // The tokenizer runs in a worker thread so building the encoder never blocks the extension host.
  { in: 'src/engine/tokens/worker/tokenizerWorker.ts', out: 'tokenizerWorker' },
  // The command line: replay transcripts and search a session's storage.
  { in: 'src/cli/main.ts', out: 'cli' },
  // The PreCompact hook Copilot Chat runs (ctx's "Archive Copilot's history" command installs it): small, no vscode.
  { in: 'src/copilotHook/preCompactHook.ts', out: 'copilotPreCompactHook' },
  // Rank files, megabytes each, bundled apart: the worker requires only the one it needs, at run
  // time, from dist/ranks next to itself (src/engine/tokens/worker/rankFiles.ts).
  { in: require.resolve('js-tiktoken/ranks/o200k_base'), out: 'ranks/o200k_base' },
  { in: require.resolve('js-tiktoken/ranks/cl100k_base'), out: 'ranks/cl100k_base' },
  // The dashboard's script runs in a webview, a browser page: bundled for the browser, nothing external.
  {
    in: 'src/webview/dashboardClient.ts',
    out: 'dashboard',
    options: { platform: 'browser', format: 'iife', target: 'es2022', external: [] },
  },
];

async function main() {
  // A missing entry is a broken build, never a smaller one.
  const missing = entryPoints.filter((entry) => !require('fs').existsSync(entry.in));
  if (missing.length > 0) throw new Error(`Missing entry file(s): ${missing.map((entry) => entry.in).join(', ')}`);
  const contexts = await Promise.all(
    entryPoints.map(({ options, ...entry }) => esbuild.context({ ...shared, ...options, entryPoints: [entry], outdir: 'dist' })),
  );
  if (watch) {
    await Promise.all(contexts.map((ctx) => ctx.watch()));
    return;
  }
  await Promise.all(contexts.map((ctx) => ctx.rebuild()));
  await Promise.all(contexts.map((ctx) => ctx.dispose()));
}

main().catch((e) => {
  console.error(`✘ [ERROR] ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
