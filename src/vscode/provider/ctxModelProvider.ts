/**
 * The language-model provider behind ctx's models. Each request goes through ctx's engine (see
 * `relayRequest`) to the wrapped model, found by vendor and id (a select without a vendor would
 * wait on ctx's own provider). If ctx fails before anything reached the wrapped model, the request
 * goes to it unchanged: ctx never makes a model unusable.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../engine/host/display';
import type { Logger } from '../../engine/host/ports';
import { type ConversationRouter, readUntilCancelled, relayRequest } from '../../engine/host/relay';
import type { CtxConfig } from '../config';
import type { Recovery } from '../recovery';
import type { SessionManager } from '../sessions';
import { ctxModelId, ctxModelInfo, wrappedOf, type CtxModelInfo } from './ctxModelInfo';
import { toIncoming } from './incoming';
import { modelRelayPorts } from './modelRelayPorts';
import { modelVendors } from './modelVendors';
import { SentTokenCounter } from './sentTokenCounter';

/** How long listing one vendor's models may take before ctx lists the others without them. */
export const VENDOR_SELECT_TIMEOUT_MS = 5_000;

type RequestMessage = vscode.LanguageModelChatRequestMessage;

export interface CtxModelDeps {
  readonly sessions: SessionManager;
  readonly recovery: Recovery;
  readonly router: ConversationRouter;
  readonly config: () => CtxConfig;
  readonly logger: Logger;
}

export class CtxModelProvider implements vscode.LanguageModelChatProvider<CtxModelInfo>, vscode.Disposable {
  private readonly changeEmitter = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changeEmitter.event;
  /** The wrapped models by ctx model id, as last listed. */
  private readonly wrapped = new Map<string, vscode.LanguageModelChat>();
  private readonly tokens: SentTokenCounter;

  constructor(private readonly deps: CtxModelDeps) {
    this.tokens = new SentTokenCounter(deps);
  }

  /** Asks VS Code to list ctx's models again (the installed models or the settings changed). */
  refresh(): void {
    this.changeEmitter.fire();
  }

  async provideLanguageModelChatInformation(): Promise<CtxModelInfo[]> {
    const config = this.deps.config();
    if (!config.models.enabled) return [];
    const vendors = modelVendors(vscode.extensions.all, config.models.vendors);
    const models = (await Promise.all(vendors.map((vendor) => this.modelsOf(vendor)))).flat();
    this.wrapped.clear();
    for (const m of models) this.wrapped.set(ctxModelId(m), m);
    return models.map((m) => ctxModelInfo(m, config.models.reportedWindow, config.answerReserveTokens));
  }

  async provideLanguageModelChatResponse(
    info: CtxModelInfo,
    messages: readonly RequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const target = await this.target(info);
    let sent = false;
    const ports = modelRelayPorts(
      { ...this.deps, counts: this.tokens.countsFor(target.family) },
      { target, options, progress, token },
      () => (sent = true),
    );
    await this.deps.sessions.trackTurn(async () => {
      try {
        const outcome = await relayRequest(
          { messages: messages.map(toIncoming), tools: options.tools ?? [], maxInputTokens: target.maxInputTokens, cancellation: token },
          ports,
        );
        this.deps.logger.debug(
          `${info.name}: ${outcome.route ?? 'instructions only'} session ${outcome.sessionId ?? '-'}, ${outcome.added} new messages, ` +
            `${outcome.prepared?.tokens ?? 0} tokens sent (+${outcome.fixedTokens} instructions and tools), ${outcome.rounds} round(s), ` +
            `${outcome.recoveryCalls} recovery call(s)${outcome.cancelled ? ', cancelled' : ''}`,
        );
      } catch (e) {
        if (sent || token.isCancellationRequested) throw e;
        this.deps.logger.error(`ctx could not prepare the request for ${info.name}; it goes to the model unchanged: ${errorMessage(e)}`);
        const direct = messages.map(toIncoming).map((m) => ({ kind: 'caller' as const, raw: m.raw, system: m.role === 'system' }));
        await readUntilCancelled(await ports.send(direct, options.tools ?? [], token), token, (part) => ports.report(part.part));
      }
    });
  }

  provideTokenCount(info: CtxModelInfo, text: string | RequestMessage): Promise<number> {
    return this.tokens.count(info.family, info.wrappedInputTokens ?? info.maxInputTokens, text);
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }

  private async modelsOf(vendor: string): Promise<vscode.LanguageModelChat[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<vscode.LanguageModelChat[]>((resolve) => {
      timer = setTimeout(() => {
        this.deps.logger.warn(
          `The models of vendor ${vendor} did not arrive within ${VENDOR_SELECT_TIMEOUT_MS} ms; they are not wrapped this time.`,
        );
        resolve([]);
      }, VENDOR_SELECT_TIMEOUT_MS);
    });
    try {
      return await Promise.race([Promise.resolve(vscode.lm.selectChatModels({ vendor })), timeout]);
    } catch (e) {
      this.deps.logger.warn(`The models of vendor ${vendor} could not be listed: ${errorMessage(e)}`);
      return [];
    } finally {
      clearTimeout(timer);
    }
  }

  private async target(info: CtxModelInfo): Promise<vscode.LanguageModelChat> {
    const known = this.wrapped.get(info.id);
    if (known) return known;
    const wrapped = wrappedOf(info);
    const found = wrapped ? (await this.modelsOf(wrapped.vendor)).find((m) => m.id === wrapped.id) : undefined;
    if (!found) throw vscode.LanguageModelError.NotFound(`The model that ${info.name} wraps is not available any more.`);
    this.wrapped.set(info.id, found);
    return found;
  }
}
