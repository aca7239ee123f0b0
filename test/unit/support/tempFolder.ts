/** Temporary folders for tests that need a real file system, removed after the test file's run. */
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

/** Makes temporary folders and removes them all on `cleanUp`. */
export class TempFolders {
  private readonly made: string[] = [];

  async make(prefix = 'ctx-test-'): Promise<string> {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
    this.made.push(folder);
    return folder;
  }

  async cleanUp(): Promise<void> {
    for (const folder of this.made.splice(0)) {
      await fs.chmod(folder, 0o700).catch(() => undefined);
      await fs.rm(folder, { recursive: true, force: true });
    }
  }
}
