/**
 * The command Copilot Chat runs before its agent compacts its history (a `PreCompact` hook that the command
 * "ctx: Archive Copilot's history before it compacts" writes into `.github/hooks/`):
 *
 *   <node> dist/copilotPreCompactHook.js <ctx's inbox folder>
 *
 * It reads the hook input on stdin and copies Copilot's transcript into the inbox (see `transcriptCopy.ts`). It
 * always exits 0: Copilot blocks on exit code 2, and archiving must never stop Copilot's compaction.
 */
import { MAX_HOOK_INPUT_CHARS } from './hookInput';
import { archiveTranscript } from './transcriptCopy';

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    // Past the limit the input is not Copilot's: stop reading, the parse says why.
    if (text.length > MAX_HOOK_INPUT_CHARS) break;
  }
  return text;
}

async function main(): Promise<void> {
  const inbox = process.argv[2];
  if (!inbox) {
    process.stderr.write('ctx: the hook command names no folder to archive into\n');
    return;
  }
  const outcome = await archiveTranscript(await readStdin(), inbox);
  // Copilot reads stdout as JSON (an empty object changes nothing) and shows stderr in its hook log.
  process.stderr.write(`${outcome.message}\n`);
  process.stdout.write('{}');
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`ctx: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(0);
  },
);
