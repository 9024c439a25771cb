import { execFileSync } from 'node:child_process';
import { serviceNodeOptions, workspaceRoot } from '@longhaul/testing';

/** Resident memory of a Node process that does nothing, in bytes. */
export interface NodeFloor {
  rssBytes: number;
  anonBytes: number;
  fileBytes: number;
}

/** Prints its own memory after a second of idling, as `VmRSS RssAnon RssFile` in kB. */
const REPORT_SELF = `setTimeout(() => { const s = require('node:fs').readFileSync('/proc/self/status', 'utf8'); console.log(['VmRSS', 'RssAnon', 'RssFile'].map((f) => new RegExp('^' + f + ':\\\\s+(\\\\d+)', 'm').exec(s)[1]).join(' ')); }, 1000);`;

/**
 * The memory an idle Node process holds before any application code, started with the options
 * the api runs with (`serviceNodeOptions`). What the api holds beyond it is its own.
 */
export function measureNodeFloor(): NodeFloor {
  const out = execFileSync(process.execPath, [...serviceNodeOptions('api'), '-e', REPORT_SELF], { cwd: workspaceRoot(), encoding: 'utf8', timeout: 30_000 });
  const [rss, anon, file] = out.trim().split(' ').map((kib) => Number(kib) * 1024);
  return { rssBytes: rss!, anonBytes: anon!, fileBytes: file! };
}
