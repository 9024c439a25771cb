import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { workspaceRoot } from '@longhaul/testing';

/** Resident memory of a Node process that does nothing, in bytes. */
export interface NodeFloor {
  rssBytes: number;
  anonBytes: number;
  fileBytes: number;
}

/** Prints its own memory after a second of idling, as `VmRSS RssAnon RssFile` in kB. */
const REPORT_SELF = `setTimeout(() => { const s = require('node:fs').readFileSync('/proc/self/status', 'utf8'); console.log(['VmRSS', 'RssAnon', 'RssFile'].map((f) => new RegExp('^' + f + ':\\\\s+(\\\\d+)', 'm').exec(s)[1]).join(' ')); }, 1000);`;

/**
 * The memory an idle Node process holds before any application code: bare, and with
 * `@swc-node/register` preloaded the way the services are started (`ServiceProcess`, `nx serve`).
 * What the api holds beyond the second is its own.
 */
export function measureNodeFloors(): { bare: NodeFloor; withSwcRegister: NodeFloor } {
  const root = workspaceRoot();
  const measure = (preload: string[]): NodeFloor => {
    const out = execFileSync(process.execPath, [...preload, '-e', REPORT_SELF], {
      cwd: root,
      env: { ...process.env, SWC_NODE_PROJECT: join(root, 'tsconfig.base.json') },
      encoding: 'utf8',
      timeout: 30_000,
    });
    const [rss, anon, file] = out.trim().split(' ').map((kib) => Number(kib) * 1024);
    return { rssBytes: rss!, anonBytes: anon!, fileBytes: file! };
  };
  return { bare: measure([]), withSwcRegister: measure(['-r', '@swc-node/register']) };
}
