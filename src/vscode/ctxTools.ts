/**
 * ctx's own language-model tools, declared in `contributes.languageModelTools` so @ctx and
 * Copilot's agent mode can both call them: search what was compressed away, read an offloaded
 * result, and set a checkpoint (the watermark, design §3.4).
 */
import * as vscode from 'vscode';
import { CHECKPOINT_TOOL } from '../engine/options';
import { readSessionOffloaded } from '../engine/recovery/readSessionOffloaded';
import type { Recovery } from './recovery';
import type { SessionManager } from './sessions';

export const CTX_TOOL_PREFIX = 'ctx_';
export const RECOVER_TOOL = 'ctx_recover';
export const READ_OFFLOADED_TOOL = 'ctx_read_offloaded';

interface RecoverInput {
  readonly query: string;
  readonly top?: number;
}
interface ReadOffloadedInput {
  readonly path: string;
  readonly startLine?: number;
  readonly endLine?: number;
}
interface CheckpointInput {
  readonly reason?: string;
}

export interface CtxToolDeps {
  readonly sessions: SessionManager;
  readonly recovery: Recovery;
}

const text = (value: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(value)]);

export function registerCtxTools(context: vscode.ExtensionContext, deps: CtxToolDeps): void {
  const recover: vscode.LanguageModelTool<RecoverInput> = {
    async invoke({ input }) {
      if (typeof input.query !== 'string' || input.query.trim() === '') {
        throw new Error('Give a query: words, identifiers, a path or an exact phrase.');
      }
      const top = Math.min(20, Math.max(1, Math.floor(input.top ?? 5)));
      const hits = await deps.recovery.search(deps.sessions.current?.session.id, input.query, top);
      if (hits.length === 0) return text(`No match for "${input.query}" in the offloaded results or the archive.`);
      return text(hits.map((h, i) => `${i + 1}. [${h.source}] ${h.ref} (score ${h.score.toFixed(1)})\n${h.excerpt}`).join('\n\n'));
    },
  };

  const read: vscode.LanguageModelTool<ReadOffloadedInput> = {
    async invoke({ input }) {
      if (typeof input.path !== 'string') throw new Error('Give "path": the file name shown in the "## Offloaded:" note.');
      // The session is the conversation's, never one named in the path: a path can only narrow it.
      const current = deps.sessions.current?.session.id;
      const sessionIds = current ? await deps.recovery.lineage(current) : [];
      const range = await readSessionOffloaded(deps.sessions.store, sessionIds, input.path, {
        startLine: input.startLine,
        endLine: input.endLine,
      });
      return text(`${range.name}, lines ${range.startLine}–${range.endLine} of ${range.totalLines}:\n${range.text}\n\n${range.hint}`);
    },
  };

  const checkpoint: vscode.LanguageModelTool<CheckpointInput> = {
    async invoke() {
      const session = deps.sessions.current?.session;
      if (!session) return text('No @ctx session is active, so there is nothing to checkpoint.');
      session.requestCheckpoint(CHECKPOINT_TOOL);
      return text(
        'Checkpoint set. From the next request on, tool calls and results before this point leave the context; all text stays, and everything remains searchable with ctx_recover.',
      );
    },
    prepareInvocation() {
      return { invocationMessage: 'Setting a context checkpoint' };
    },
  };

  context.subscriptions.push(
    vscode.lm.registerTool(RECOVER_TOOL, recover),
    vscode.lm.registerTool(READ_OFFLOADED_TOOL, read),
    vscode.lm.registerTool(CHECKPOINT_TOOL, checkpoint),
  );
}
