/**
 * Mailpit as the stack's mail catcher: an SMTP server that keeps every message it accepts and
 * an HTTP API (and UI) to read them, both on 127.0.0.1. The mailbox is a SQLite file under
 * state/mail, emptied on every start, so it lives exactly as long as the process, like
 * Jaeger's in-memory traces.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import type { Component } from './component.types.mts';
import { goToolBinary } from './go-tool.build.mts';
import { goToolComponent } from './go-tool.component.mts';
import { answersOk, probe } from './http.probe.mts';
import { mailpitTool } from './mailpit.build.mts';
import type { StackConfig } from './stack.config.mts';

const DATABASE_FILE = 'mailpit.db';

/** Mailpit reads MP_* variables as settings; one left in a shell (a relay, a webhook) must not reach it. */
function withoutMailpitSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('MP_')));
}

function answersReadyz(config: StackConfig): Promise<boolean> {
  return answersOk(`${config.mail.apiUrl}/readyz`);
}

export const mailComponent: Component = {
  name: 'mail',
  dependsOn: [],
  startTimeoutMs: 30_000,
  stopSignal: 'SIGTERM',
  stopGraceMs: 10_000,

  ...goToolComponent(mailpitTool),

  async prepare(config) {
    const stateDir = join(config.layout.state, 'mail');
    mkdirSync(stateDir, { recursive: true });
    const database = join(stateDir, DATABASE_FILE);
    // SQLite's WAL and shared-memory files go too, or the old mailbox would come back.
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${database}${suffix}`, { force: true });
    const { host, ports } = config;
    return {
      command: goToolBinary(config, mailpitTool),
      args: [
        `--smtp=${host}:${ports.smtp}`,
        `--listen=${host}:${ports.mailpitUi}`,
        // Without it Mailpit makes a temporary file in /tmp, left behind when it is killed.
        `--database=${database}`,
        // The default keeps only the newest 500; a test counting what a long run sent needs them all.
        '--max=0',
        // Any AUTH (PLAIN, LOGIN) or none, over plain SMTP: services send as they would to a
        // real relay, and no credential has to match.
        '--smtp-auth-accept-any',
        '--smtp-auth-allow-insecure',
        // Each of these would reach outside 127.0.0.0/8: the release check asks GitHub, reverse
        // DNS asks the resolver about each client, and the HTML check fetches the remote
        // stylesheets an HTML message links to. (The link check and the UI's screenshot proxy
        // fetch a message's links and images too, but only when those endpoints are called.)
        '--disable-version-check',
        '--smtp-disable-rdns',
        '--block-remote-css-and-fonts',
      ],
      cwd: stateDir,
      env: withoutMailpitSettings(process.env),
    };
  },

  isStarted: answersReadyz,

  async isHealthy(config) {
    if (!(await answersReadyz(config))) return false;
    const response = await probe(`${config.mail.apiUrl}/api/v1/info`);
    if (!response.ok) return false;
    const info = (await response.json()) as { Version?: unknown };
    return typeof info.Version === 'string';
  },
};
