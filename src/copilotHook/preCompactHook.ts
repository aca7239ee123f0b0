/**
 * The command Copilot Chat runs before its agent compacts its history (a `PreCompact` hook that the command
 * "ctx: Archive Copilot's history before it compacts" writes into `.github/hooks/`):
 *
 *   <node> dist/copilotPreCompactHook.js <ctx's inbox folder>
 *
 * It reads the hook input on stdin (within a time limit of its own, `hookStdin.ts`) and copies Copilot's transcript
 * into the inbox (see `transcriptCopy.ts`). It always exits 0: Copilot blocks on exit code 2, and archiving must never stop Copilot's compaction.
 */
import { readHookInput } from './hookStdin';
import { archiveTranscript } from './transcriptCopy';

async function main(): Promise<void> {
  const inbox = process.argv[2];
  if (!inbox) {
    process.stderr.write('ctx: the hook command names no folder to archive into\n');
    return;
  }
  const input = await readHookInput(process.stdin).then(
    (text) => ({ text }),
    (e: unknown) => ({ why: e instanceof Error ? e.message : String(e) }),
  );
  const message = 'text' in input ? (await archiveTranscript(input.text, inbox)).message : `ctx: nothing archived: ${input.why}`;
  // Copilot reads stdout as JSON (an empty object changes nothing) and shows stderr in its hook log.
  process.stderr.write(`${message}\n`);
  process.stdout.write('{}');
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`ctx: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(0);
  },
);
