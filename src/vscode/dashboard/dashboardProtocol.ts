/**
 * The messages between the dashboard's webview and the extension. The webview sends what the user
 * did; the extension sends the parts of the page that changed, as HTML it built and escaped. Every
 * message from the webview goes through `isWebviewMessage` before it is acted on.
 */

/** The parts of the page, each replaced whole when it changes. */
export const SECTION_IDS = ['header', 'preview', 'composition', 'items', 'timeline', 'checkpoints'] as const;
export type SectionId = (typeof SECTION_IDS)[number];

/** What the user can ask for: on an item, or on the whole context. */
export const ACTIONS = ['open', 'pin', 'unpin', 'drop', 'offload', 'more', 'preview', 'apply', 'cancel', 'undo', 'compress'] as const;
export type DashboardAction = (typeof ACTIONS)[number];

/** From the webview. */
export type WebviewMessage =
  | { readonly type: 'action'; readonly action: DashboardAction; readonly item?: string }
  /** The first render was painted, this many milliseconds after the webview's document started. */
  | { readonly type: 'painted'; readonly ms: number };

/** From the extension. */
export type HostMessage =
  { readonly type: 'sections'; readonly sections: Partial<Record<SectionId, string>> } | { readonly type: 'notice'; readonly text: string };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** True for a well-formed message from the webview. */
export function isWebviewMessage(v: unknown): v is WebviewMessage {
  if (!isRecord(v)) return false;
  if (v.type === 'painted') return typeof v.ms === 'number' && Number.isFinite(v.ms);
  return (
    v.type === 'action' &&
    typeof v.action === 'string' &&
    (ACTIONS as readonly string[]).includes(v.action) &&
    (v.item === undefined || (typeof v.item === 'string' && v.item.length <= 1_000))
  );
}
