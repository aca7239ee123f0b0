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
  await vscode.commands.executeCommand('workbench.action.chat.open');
  await page.click(selectors.chatInput);
  await vscode.commands.executeCommand('workbench.action.chat.openModelPicker');
  await page.waitForText(rows, shownFirst);
  const focused = async () => (await page.text(`${rows}.focused`))[0] ?? '';
  for (let i = 0; i < (await page.text(rows)).length && !label(await focused()); i++) {
    if ((await page.attribute(collapsedGroup, 'aria-expanded')).length > 0) await page.press('Enter');
    await page.press('ArrowDown');
  }
  const labels = await page.text(rows);
  assert.ok(label(await focused()), `no row to pick among ${labels.join(' | ')}`);
  await page.press('Enter');
  return labels;
}
