/**
 * Preloaded with `node --require` into a command line run by scaleMemory.ts: when the process
 * exits it writes its peak resident set size, in bytes, to the file named by CTX_BENCH_RSS_FILE.
 * The command line itself is run unchanged.
 */
import * as fs from 'node:fs';

const target = process.env.CTX_BENCH_RSS_FILE;
if (target) {
  process.on('exit', () => fs.writeFileSync(target, String(process.resourceUsage().maxRSS * 1024)));
}
