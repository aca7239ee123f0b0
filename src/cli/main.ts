/** Entry point of `dist/cli.js` (see esbuild.js): `node dist/cli.js --help` for what it does. */
import { runCli } from './runCli';
import { processTerminal } from './terminal';

void runCli(process.argv.slice(2), processTerminal()).then((status) => {
  // Let pending output drain rather than exiting at once.
  process.exitCode = status;
});
