/**
 * @ctx manages its own context: given one of ctx's models, it talks to the model that one wraps,
 * so a conversation is managed once, not by two sessions one inside the other.
 */
import * as vscode from 'vscode';
import { CTX_VENDOR, wrappedOf } from './ctxModelInfo';

/** The model a ctx model wraps (found by its vendor and id); any other model as it is. */
export async function directModel(model: vscode.LanguageModelChat): Promise<vscode.LanguageModelChat> {
  if (model.vendor !== CTX_VENDOR) return model;
  const wrapped = wrappedOf(model);
  if (!wrapped) return model;
  const [found] = await vscode.lm.selectChatModels({ vendor: wrapped.vendor, id: wrapped.id });
  return found ?? model;
}

/**
 * The chat request with its model replaced by the one it wraps. The request is left as it is
 * underneath (its other properties are read through), since some are only readable on demand.
 */
export async function withDirectModel(request: vscode.ChatRequest): Promise<vscode.ChatRequest> {
  const model = await directModel(request.model);
  return model === request.model ? request : (Object.create(request, { model: { value: model } }) as vscode.ChatRequest);
}
