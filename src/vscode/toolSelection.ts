/**
 * Which tools @ctx offers the model. By default every tool VS Code knows (`vscode.lm.tools`), as VS Code's
 * own agent does; `ctx.tools.allowed` restricts them (names or globs; empty or `*` is everything). ctx's own
 * tools are always offered, and so are the tools the user attached to the request with `#`: an explicit
 * attachment wins over the restriction. In Restricted Mode only those two are offered. Pure, so it is tested
 * without VS Code.
 */

/** What a tool needs for choosing: its name (`vscode.LanguageModelToolInformation` has one). */
export interface NamedTool {
  readonly name: string;
}

/** The tools of a turn. */
export interface ToolChoice<T extends NamedTool> {
  /** Offered in every round: ctx's own first, then the attached ones, then the rest in VS Code's order. */
  readonly tools: readonly T[];
  /** The tools the user attached (`#name`): the first round asks the model to call one of them. */
  readonly attached: readonly T[];
  /** Allowed tools left out because the request would have had more than `MAX_TOOLS_PER_REQUEST`. */
  readonly leftOut: readonly string[];
}

/**
 * Most tools in one request.
 * @default 128 — the limit of OpenAI-compatible chat APIs, which reject requests with more tools.
 */
export const MAX_TOOLS_PER_REQUEST = 128;

/** The `ctx.tools.allowed` entry that allows every tool. */
export const EVERY_TOOL = '*';

export interface ToolChoiceOptions {
  /** `ctx.tools.allowed`: names or globs (`*` any characters); empty or containing `*` allows every tool. */
  readonly allowed: readonly string[];
  /** The name prefix of ctx's own tools, always offered. */
  readonly ownPrefix: string;
  /** Names of the tools the user attached to the request. */
  readonly attached: readonly string[];
  /**
   * Restricted Mode (an untrusted workspace): only ctx's own tools and the attached ones, whatever
   * `allowed` says, so that the model cannot run the workspace's code on its own initiative.
   */
  readonly restricted?: boolean;
}

/** The tools to offer from `available`, in a stable order. */
export function chooseTools<T extends NamedTool>(available: readonly T[], options: ToolChoiceOptions): ToolChoice<T> {
  const isAllowed = options.restricted ? () => false : allowedToolMatcher(options.allowed);
  const attachedNames = new Set(options.attached);
  const own = available.filter((t) => t.name.startsWith(options.ownPrefix));
  const attached = available.filter((t) => attachedNames.has(t.name));
  const others = available.filter((t) => !t.name.startsWith(options.ownPrefix) && !attachedNames.has(t.name) && isAllowed(t.name));
  const ordered = [...own, ...attached.filter((t) => !t.name.startsWith(options.ownPrefix)), ...others];
  return {
    tools: ordered.slice(0, MAX_TOOLS_PER_REQUEST),
    attached,
    leftOut: ordered.slice(MAX_TOOLS_PER_REQUEST).map((t) => t.name),
  };
}

/** Whether a tool name passes `ctx.tools.allowed`: every name when the list is empty or holds `*`. */
export function allowedToolMatcher(allowed: readonly string[]): (name: string) => boolean {
  const patterns = allowed.map((p) => p.trim()).filter((p) => p.length > 0);
  if (patterns.length === 0 || patterns.includes(EVERY_TOOL)) return () => true;
  const regexps = patterns.map((p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`));
  return (name) => regexps.some((r) => r.test(name));
}
