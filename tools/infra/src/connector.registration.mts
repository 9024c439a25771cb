/**
 * Registers the checked-in Debezium connector with the Connect worker and waits
 * until it streams.
 *
 * In:  infra/debezium/longhaul-outbox.connector.json, a healthy Connect worker,
 *      a healthy Postgres with the `longhaul_outbox` publication.
 * Out: connector `longhaul-outbox` and its one task RUNNING, and the marker
 *      state/connect/connector.registered. A config equal to the file is left
 *      alone (a PUT would restart the task for nothing); a FAILED connector or
 *      task is restarted once before we give up.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { InfraError } from './infra.errors.mts';
import type { StackConfig } from './stack.config.mts';

export interface ConnectorStatus {
  readonly registered: boolean;
  readonly state?: string;
  readonly tasks: readonly string[];
  /** First lines of the Java stack trace of a FAILED connector or task. */
  readonly trace?: string;
}

interface StatusBody {
  connector: { state: string; trace?: string };
  tasks: { state: string; trace?: string }[];
}

export function isRunning(status: ConnectorStatus): boolean {
  return status.state === 'RUNNING' && status.tasks.length > 0 && status.tasks.every((task) => task === 'RUNNING');
}

export async function connectorStatus(config: StackConfig): Promise<ConnectorStatus> {
  const response = await fetch(connectorUrl(config, '/status'), { signal: AbortSignal.timeout(3_000) });
  if (response.status === 404) return { registered: false, tasks: [] };
  if (!response.ok) throw new Error(`GET status: HTTP ${response.status}`);
  const body = (await response.json()) as StatusBody;
  const trace = [body.connector.trace, ...body.tasks.map((task) => task.trace)].find((candidate) => candidate);
  return {
    registered: true,
    state: body.connector.state,
    tasks: body.tasks.map((task) => task.state),
    trace: trace?.split('\n').slice(0, 12).join('\n'),
  };
}

export async function ensureConnector(config: StackConfig, timeoutMs = 120_000): Promise<'created' | 'updated' | 'unchanged'> {
  const deadline = Date.now() + timeoutMs;
  const desired = JSON.parse(readFileSync(config.connector.file, 'utf8')) as Record<string, string>;
  const current = await untilAnswered(deadline, () => fetchJson<Record<string, string>>(connectorUrl(config, '/config')));
  const outcome = current === undefined ? 'created' : sameConfig(current, desired) ? 'unchanged' : 'updated';
  if (outcome !== 'unchanged') {
    await untilAnswered(deadline, async () => {
      const response = await fetch(connectorUrl(config, '/config'), {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(desired),
        signal: AbortSignal.timeout(60_000),
      });
      if (response.status === 409 || response.status >= 500) throw new Error(`HTTP ${response.status} ${await response.text()}`);
      if (!response.ok) {
        throw new InfraError('CONNECTOR_FAILED', `Connect rejected ${config.connector.file}: HTTP ${response.status} ${await response.text()}`);
      }
    });
  }
  writeFileSync(registeredMarker(config), `${new Date().toISOString()}\n`);
  await waitRunning(config, Math.max(deadline - Date.now(), 10_000));
  return outcome;
}

/** Set by a successful registration, cleared by `down connector`: tells a restarted stack to bring the connector back. */
export function wasRegistered(config: StackConfig): boolean {
  return existsSync(registeredMarker(config));
}

function registeredMarker(config: StackConfig): string {
  return join(config.layout.state, 'connect', 'connector.registered');
}

/**
 * Retries while the worker is between states: right after start it is still
 * joining its group and reading the config topic, and answers 409/5xx.
 */
async function untilAnswered<T>(deadline: number, call: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (error instanceof InfraError || Date.now() > deadline) throw error;
      await sleep(500);
    }
  }
}

export async function deleteConnector(config: StackConfig): Promise<boolean> {
  const response = await fetch(connectorUrl(config, ''), { method: 'DELETE', signal: AbortSignal.timeout(30_000) });
  rmSync(registeredMarker(config), { force: true });
  return response.ok;
}

async function waitRunning(config: StackConfig, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let restarted = false;
  let last: ConnectorStatus = { registered: false, tasks: [] };
  while (Date.now() < deadline) {
    last = await connectorStatus(config).catch(() => last);
    if (isRunning(last)) return;
    const failed = last.state === 'FAILED' || last.tasks.includes('FAILED');
    if (failed && restarted) break;
    if (failed) {
      restarted = true;
      await fetch(connectorUrl(config, '/restart?includeTasks=true&onlyFailed=true'), { method: 'POST', signal: AbortSignal.timeout(30_000) });
    }
    await sleep(500);
  }
  throw new InfraError(
    'CONNECTOR_FAILED',
    `connector ${config.connector.name} is ${last.state ?? 'missing'} (tasks: ${last.tasks.join(', ') || 'none'})` +
      (last.trace ? `\n${last.trace}` : '') +
      `\nsee the Connect log: npm run infra:logs -- connect`,
  );
}

function sameConfig(current: Record<string, string>, desired: Record<string, string>): boolean {
  const keys = new Set([...Object.keys(current), ...Object.keys(desired)]);
  keys.delete('name'); // Connect adds it to the stored config
  return [...keys].every((key) => current[key] === desired[key]);
}

async function fetchJson<T>(url: string): Promise<T | undefined> {
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return (await response.json()) as T;
}

function connectorUrl(config: StackConfig, suffix: string): string {
  return `${config.connect.url}/connectors/${config.connector.name}${suffix}`;
}
