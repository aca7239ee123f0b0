/** User settings a test changes for its run and puts back after it. */
import * as vscode from 'vscode';

/** A setting as its section, its key and the value a test gives it. */
export type SettingChange = readonly [section: string, key: string, value: unknown];

/** Sets each setting in the user's (global) settings; resolves to what puts every one back as it was. */
export async function applyGlobalSettings(changes: readonly SettingChange[]): Promise<() => Promise<void>> {
  const before: unknown[] = [];
  for (const [section, key, value] of changes) {
    const config = vscode.workspace.getConfiguration(section);
    before.push(config.inspect(key)?.globalValue);
    await config.update(key, value, vscode.ConfigurationTarget.Global);
  }
  return async () => {
    for (const [i, [section, key]] of changes.entries()) {
      await vscode.workspace.getConfiguration(section).update(key, before[i], vscode.ConfigurationTarget.Global);
    }
  };
}
