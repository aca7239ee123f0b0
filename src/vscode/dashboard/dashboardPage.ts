/**
 * The dashboard's page: a strict Content-Security-Policy (no network; styles and the one script
 * only from the extension's own files, the script by nonce), VS Code's theme variables, and the
 * parts of the page already rendered, so the first paint needs no round trip.
 */
import { SECTION_IDS } from './dashboardProtocol';
import type { Sections } from './dashboardSections';
import { escapeHtml } from './html';

export interface PageResources {
  /** `webview.cspSource`: where the webview may load the extension's files from. */
  readonly cspSource: string;
  readonly scriptUri: string;
  readonly styleUri: string;
  /** A fresh random nonce for this page's script. */
  readonly nonce: string;
}

/** The section elements' accessible names. */
const SECTION_LABELS: Readonly<Record<(typeof SECTION_IDS)[number], string>> = {
  header: 'Session',
  preview: 'Compression preview',
  composition: 'Composition of the budget',
  items: 'Items in the context',
  timeline: 'Timeline',
  checkpoints: 'Checkpoints',
};

export function dashboardPage(sections: Sections, r: PageResources): string {
  const csp = [
    "default-src 'none'",
    `style-src ${r.cspSource}`,
    `script-src 'nonce-${r.nonce}'`,
    `img-src ${r.cspSource}`,
    `font-src ${r.cspSource}`,
  ].join('; ');
  if (csp.includes('"')) throw new Error(`A Content-Security-Policy source cannot hold a quote: ${r.cspSource}`);
  const body = SECTION_IDS.map(
    (id) =>
      `<section id="${id}" aria-label="${SECTION_LABELS[id]}"${id === 'preview' ? ' aria-live="polite"' : ''}>${sections[id]}</section>`,
  ).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(r.styleUri)}">
<title>Context dashboard</title>
</head>
<body>
<main>
${body}
<div id="notice" role="status" aria-live="polite"></div>
</main>
<script nonce="${escapeHtml(r.nonce)}" src="${escapeHtml(r.scriptUri)}"></script>
</body>
</html>`;
}
