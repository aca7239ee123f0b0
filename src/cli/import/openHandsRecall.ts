/**
 * An OpenHands recall observation (workspace context, triggered microagents) as the text the agent
 * was given. OpenHands renders it through its own prompt templates; this keeps every field's text
 * under plain labels rather than imitating them.
 */
import { arrayField, isJsonObject, stringField, type JsonObject } from './jsonShape';

/** Starts the user message a recall becomes, so it reads as injected context, not as the user. */
export const OPENHANDS_CONTEXT_MARKER = '[OpenHands workspace context]';

/** The context text, or '' when the recall added nothing. */
export function renderRecall(extras: JsonObject): string {
  const lines: string[] = [];
  const repo = [stringField(extras, 'repo_name'), stringField(extras, 'repo_directory')].filter(
    (part) => part !== undefined && part !== '',
  );
  if (repo.length > 0) lines.push(`repository: ${repo.join(' at ')}`);
  labelled(lines, 'repository instructions', stringField(extras, 'repo_instructions'));
  labelled(lines, 'additional instructions', stringField(extras, 'additional_agent_instructions'));
  const hosts = isJsonObject(extras.runtime_hosts) ? Object.keys(extras.runtime_hosts) : [];
  if (hosts.length > 0) lines.push(`runtime hosts: ${hosts.join(', ')}`);
  labelled(lines, 'date', stringField(extras, 'date'));
  for (const agent of arrayField(extras, 'microagent_knowledge') ?? []) {
    if (!isJsonObject(agent)) continue;
    labelled(
      lines,
      `microagent ${stringField(agent, 'name') ?? ''} (trigger ${stringField(agent, 'trigger') ?? ''})`,
      stringField(agent, 'content'),
    );
  }
  return lines.length === 0 ? '' : [OPENHANDS_CONTEXT_MARKER, ...lines].join('\n');
}

function labelled(lines: string[], label: string, value: string | undefined): void {
  if (value !== undefined && value.trim() !== '') lines.push(value.includes('\n') ? `${label}:\n${value}` : `${label}: ${value}`);
}
