/**
 * Port probes: is a loopback port free for us to bind, and does something answer on it.
 */
import { execFileSync } from 'node:child_process';
import { createConnection, createServer } from 'node:net';

import { InfraError } from './infra.errors.mts';
import type { PortSetting } from './stack.config.mts';

/** True when a TCP connection to host:port is accepted within `timeoutMs`. */
export function canConnect(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const socket = createConnection({ host, port });
    const done = (result: boolean): void => {
      socket.destroy();
      resolvePromise(result);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** True when we could bind host:port right now (and nobody answers on it). */
export async function isPortFree(host: string, port: number): Promise<boolean> {
  if (await canConnect(host, port, 500)) return false;
  return new Promise((resolvePromise) => {
    const server = createServer();
    server.once('error', () => resolvePromise(false));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolvePromise(true)));
  });
}

/** Fails with PORT_TAKEN, naming the port, its env var and (when `ss` can tell) the process holding it. */
export async function assertPortsFree(host: string, owner: string, ports: readonly { setting: PortSetting; port: number }[]): Promise<void> {
  for (const { setting, port } of ports) {
    if (await isPortFree(host, port)) continue;
    const holder = portHolder(port);
    throw new InfraError(
      'PORT_TAKEN',
      `port ${port} (${setting.purpose}) is already in use${holder ? ` by ${holder}` : ''}, which is not ${owner}; ` +
        `stop that process or choose another port with ${setting.envVar}=<port>`,
    );
  }
}

/** Best effort: `ss` names the listening process; absent or unprivileged, we say nothing. */
function portHolder(port: number): string | undefined {
  try {
    const out = execFileSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const match = /users:\(\("([^"]+)",pid=(\d+)/.exec(out);
    return match ? `${match[1]} (pid ${match[2]})` : undefined;
  } catch {
    return undefined;
  }
}
