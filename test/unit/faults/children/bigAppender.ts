/**
 * A child process appending large lines to one file: `node bigAppender.js <root> <path> <tag> <count> <bytes>`.
 * Each line is `<tag>` repeated to about `bytes` bytes, so a line mixed with another writer's shows.
 */
import { FileStore } from '../../../../src/engine/storage/fileStore';

async function main(): Promise<void> {
  const [root, file, tag, count, bytes] = process.argv.slice(2);
  const store = new FileStore(root, undefined, { sync: false });
  const line = JSON.stringify({ tag, body: tag.repeat(Math.ceil(Number(bytes) / tag.length)) });
  for (let i = 0; i < Number(count); i++) await store.append(file, [line]);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(3);
});
