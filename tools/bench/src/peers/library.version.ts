import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workspaceRoot } from '@longhaul/testing';

/** The version of an npm package as installed in the workspace (its package.json), or `not installed`. */
export function installedVersion(pkg: string): string {
  try {
    const manifest = JSON.parse(readFileSync(join(workspaceRoot(), 'node_modules', pkg, 'package.json'), 'utf8')) as { version?: string };
    return manifest.version ?? 'unknown';
  } catch {
    return 'not installed';
  }
}
