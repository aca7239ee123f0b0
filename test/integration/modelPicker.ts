/**
 * Picking a model in the Chat view's model picker, as a user does: with the keyboard (the mouse cannot reach its
 * rows), expanding the collapsed groups on the way (1.139 lists a model that is not the user's pick under "Other
 * Models"). A module of its own, not a test file: a test file that imported another would run that file's tests too.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { page, selectors } from './page';

const rows = '.action-widget .monaco-list-row';

/** A collapsed group of the picker, such as 1.139's "Other Models", focused: Enter expands it. */
const collapsedGroup = `:is(${rows}.focused, ${rows}.focused *)[aria-expanded="false"]`;

/**
 * Opens the Chat view's model picker and picks the first row `label` accepts, once the picker lists `shownFirst`.
 * Returns the labels of the rows shown.
 */
export async function pickModel(label: (row: string) => boolean, shownFirst: string): Promise<string[]> {
  let labels: string[] = [];
  for (let attempt = 1; attempt <= PICKER_ATTEMPTS; attempt++) {
    labels = await rowsTo(label, shownFirst);
    // The workbench closes an open picker when the list of models changes (a setting just changed re-lists them).
    if (labels.length > 0) break;
  }
  const focused = (await page.text(`${rows}.focused`))[0] ?? '';
  assert.ok(label(focused), `no row to pick among ${labels.join(' | ')}`);
  await page.press('Enter');
  return labels;
}

/** Times the picker is opened before a picker that closed on its own fails the pick. @default 2 */
const PICKER_ATTEMPTS = 2;

/** Opens the picker and moves the focus down to the first row `label` accepts; the rows shown then (none once it closed). */
async function rowsTo(label: (row: string) => boolean, shownFirst: string): Promise<string[]> {
  await vscode.commands.executeCommand('workbench.action.chat.open');
  await page.click(selectors.chatInput);
  await vscode.commands.executeCommand('workbench.action.chat.openModelPicker');
  await page.waitForText(rows, shownFirst);
  const focused = async () => (await page.text(`${rows}.focused`))[0] ?? '';
  for (let i = 0; i < (await page.text(rows)).length && !label(await focused()); i++) {
    if ((await page.attribute(collapsedGroup, 'aria-expanded')).length > 0) await page.press('Enter');
    await page.press('ArrowDown');
  }
  return page.text(rows);
}
