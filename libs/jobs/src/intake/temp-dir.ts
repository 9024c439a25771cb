import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs `work` with a fresh private directory (mode 0700) under `root` and removes the directory
 * and everything in it afterwards, whether `work` resolved or threw. Media on its way in lives
 * here until it is in the blob store, so a refused or failed intake leaves nothing behind.
 */
export async function withTempDir<T>(work: (dir: string) => Promise<T>, root: string = tmpdir()): Promise<T> {
  const dir = await mkdtemp(join(root, 'longhaul-intake-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
