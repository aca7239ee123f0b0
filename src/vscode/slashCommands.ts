/**
 * @ctx's slash commands, as a table: each reads its argument, calls the engine and writes the
 * answer into the chat. Turns without a command go to the tool loop instead.
 */
import * as vscode from 'vscode';
import { counted, formatCount, summarizeCompression } from '../engine/host/display';
import type { Logger } from '../engine/host/ports';
import {
  compressionProgress,
  compressReported,
  type ContextSession,
  measureReported,
  type TurnOptions,
  whileCompressing,
} from '../engine/host/session';
import { COMMANDS } from './commandIds';
import type { CtxConfig } from './config';
import { summarizerFor } from './modelSummarizer';
import { summarizingWithinTurn } from './turnRequests';
import type { Recovery } from './recovery';
import type { SessionManager } from './sessions';

export interface SlashCommandDeps {
  readonly sessions: SessionManager;
  readonly recovery: Recovery;
  readonly config: () => CtxConfig;
  readonly logger: Logger;
}

export interface SlashCommandContext {
  readonly session: ContextSession;
  readonly request: vscode.ChatRequest;
  readonly stream: vscode.ChatResponseStream;
  readonly token: vscode.CancellationToken;
  readonly deps: SlashCommandDeps;
}

type SlashCommand = (c: SlashCommandContext) => Promise<void>;

/**
 * The turn options of a chat request: the summarizer, cancellation and progress, which shows in the
 * chat (a turn also says it as a compression under way; see `compressionProgress`).
 */
export async function turnOptionsFor(
  c: Pick<SlashCommandContext, 'request' | 'stream' | 'token' | 'deps'>,
  focus?: string,
): Promise<TurnOptions> {
  const config = c.deps.config();
  const found = await summarizerFor(config.summarizerModel, c.request.model);
  // The chat's own model is asked within the conversation; another model gets a prompt of its own.
  const summarizer = found?.modelId === c.request.model.id ? summarizingWithinTurn(found, c.request, config.allowedTools) : found;
  return {
    ...(summarizer ? { summarizer } : {}),
    cancellation: c.token,
    progress: (message) => c.stream.progress(message),
    ...(focus ? { focus } : {}),
  };
}

/** A slash command's turn options, its progress also shown as a compression under way in the status bar. */
async function compressionOptions(c: SlashCommandContext, focus?: string): Promise<TurnOptions> {
  return compressionProgress(c.deps.sessions.emit, c.session, await turnOptionsFor(c, focus));
}

const budgetOf = (c: SlashCommandContext) => c.deps.sessions.budgetFor(c.request.model.maxInputTokens);

export const SLASH_COMMANDS: Readonly<Record<string, SlashCommand>> = {
  status: async (c) => {
    c.stream.markdown(await c.deps.sessions.report(c.session));
    c.stream.button({ command: COMMANDS.openDashboard, title: 'Open the dashboard' });
  },

  compress: async (c) => {
    const focus = c.request.prompt.trim();
    c.stream.progress(focus ? `Compressing context, focusing on "${focus}"…` : 'Compressing context…');
    const turn = await compressionOptions(c, focus);
    const prepared = await compressReported(
      c.deps.sessions.emit,
      c.session,
      () => c.session.compress(budgetOf(c), turn),
      'Compressing the context…',
    );
    c.stream.markdown(summarizeCompression(prepared));
    if (c.token.isCancellationRequested) c.stream.markdown('\n\nCompression was cancelled; the context is as it was.');
  },

  recover: async (c) => {
    const query = c.request.prompt.trim();
    if (!query) {
      c.stream.markdown('Tell me what to look for: `/recover <words, an identifier, a path or an error message>`.');
      return;
    }
    const hits = await c.deps.recovery.search(c.session.id, query, 8);
    if (hits.length === 0) {
      c.stream.markdown(`Nothing matches "${query}" in this session's offloaded results, archive or checkpoints.`);
      return;
    }
    c.stream.markdown(`**${hits.length} match${hits.length === 1 ? '' : 'es'} for "${query}"**, best first:\n\n`);
    hits.forEach((h, i) => {
      c.stream.markdown(`${i + 1}. **${h.source}** · \`${h.ref}\`${h.toolName ? ` · ${h.toolName}` : ''}\n\n${quote(h.excerpt)}\n\n`);
    });
    c.stream.button({ command: COMMANDS.recover, title: 'Search interactively' });
  },

  goal: async (c) => {
    const text = c.request.prompt.trim();
    const done = /^(done|complete[d]?)\s+(.+)$/i.exec(text);
    if (done) {
      const found = await c.session.completeGoal(done[2]);
      c.stream.markdown(found ? `✅ Goal completed: ${done[2]}` : `No active goal matches "${done[2]}".`);
    } else if (text) {
      await c.session.addGoal(text);
      c.stream.markdown(`🎯 Goal added. It is kept verbatim in every request and never summarized:\n\n> ${text}`);
    }
    const goals = c.session.ledger.goals;
    if (!text || goals.length > 1) {
      c.stream.markdown(
        goals.length === 0
          ? 'No goals yet. Add one with `/goal <text>`.'
          : `\n\n**Goals**\n${goals.map((g) => `- ${g.status === 'completed' ? '✅' : '🎯'} ${g.text}`).join('\n')}`,
      );
    }
  },

  decide: async (c) => {
    const text = c.request.prompt.trim();
    if (text) {
      await c.session.addDecision(text);
      c.stream.markdown(`🔒 Decision locked. It is kept verbatim in every request and never summarized:\n\n> ${text}`);
      return;
    }
    const decisions = c.session.ledger.decisions;
    c.stream.markdown(
      decisions.length === 0
        ? 'No locked decisions yet. Lock one with `/decide <text>`.'
        : `**Locked decisions**\n${decisions.map((d) => `- 🔒 ${d.text}`).join('\n')}`,
    );
  },

  snapshot: async (c) => {
    const name = c.request.prompt.trim();
    const snapshot = await c.session.createSnapshot(name || undefined);
    if (snapshot) {
      c.stream.markdown(
        `📸 Snapshot **${snapshot.name}** saved: ` +
          `${formatCount(snapshot.tokens)} tokens, ${counted(snapshot.messageCount, 'message')}, ${counted(snapshot.checkpointCount, 'checkpoint')}. ` +
          `Restore it with \`/restore ${snapshot.name}\`.`,
      );
    }
  },

  restore: async (c) => {
    const name = c.request.prompt.trim();
    if (name) {
      const restored = await c.session.restoreSnapshot(name);
      if (restored) {
        await measureReported(c.deps.sessions.emit, c.session, budgetOf(c));
        c.stream.markdown(
          `Restored **${restored.name}** (${counted(restored.messageCount, 'message')}, ${counted(restored.checkpointCount, 'checkpoint')}). ` +
            `The state before it was saved as a snapshot too, and the archive still has everything.`,
        );
        return;
      }
      c.stream.markdown(`No snapshot is named "${name}".\n\n`);
    }
    const snapshots = (await c.session.listSnapshots()).filter((s) => s.readable);
    if (snapshots.length === 0) {
      c.stream.markdown('This session has no snapshots yet. Take one with `/snapshot [name]`.');
      return;
    }
    c.stream.markdown(
      `**Snapshots**, newest first — restore one with \`/restore <name>\`:\n\n${snapshots
        .slice(0, 15)
        .map(
          (s) =>
            `- **${s.name}** · ${new Date(s.at).toLocaleString()} · ${formatCount(s.tokens)} tokens, ${counted(s.checkpointCount, 'checkpoint')}`,
        )
        .join('\n')}`,
    );
    c.stream.button({ command: COMMANDS.restoreSnapshot, title: 'Choose a snapshot to restore', arguments: [c.session.id] });
  },

  fresh: async (c) => {
    c.stream.progress('Summarizing the whole session into a checkpoint…');
    const turn = await compressionOptions(c);
    const prepared = await whileCompressing(
      c.deps.sessions.emit,
      c.session,
      () => c.session.checkpointEverything(budgetOf(c), turn),
      'Summarizing the whole session…',
    );
    if (c.token.isCancellationRequested) {
      c.stream.markdown('Cancelled; this session is unchanged.');
      return;
    }
    const fresh = await c.deps.sessions.startFresh(c.session);
    c.stream.markdown(
      `Started a fresh session seeded with the ledger (goals, decisions, your messages, the files and commands so far) ` +
        `and ${prepared.checkpoints} checkpoint${prepared.checkpoints === 1 ? '' : 's'}. ` +
        `It continues in a new chat; this conversation stays in the archive and can still be searched with \`/recover\`.`,
    );
    openFreshChat(fresh.id, c.deps.logger);
  },
};

/** Opens a new chat that continues in the fresh session, once the current response has finished. */
export function openFreshChat(freshId: string, logger: Logger): void {
  setTimeout(() => {
    void (async () => {
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      await vscode.commands.executeCommand('workbench.action.chat.open', {
        query: '@ctx Continue from the checkpoint of the previous session.',
      });
    })().catch((e: unknown) => logger.warn(`Could not open a new chat for fresh session ${freshId}: ${String(e)}`));
  }, 0);
}

function quote(text: string): string {
  return text
    .trim()
    .split('\n')
    .slice(0, 8)
    .map((l) => `> ${l}`)
    .join('\n');
}
