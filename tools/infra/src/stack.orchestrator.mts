/**
 * Brings components up and down: reuse what runs, check ports and
 * dependencies, provision, launch detached, wait for health, stop by PID.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import type { Component } from './component.types.mts';
import { connectComponent } from './connect.component.mts';
import { waitUntilHealthy } from './health.poll.mts';
import { InfraError } from './infra.errors.mts';
import { jaegerComponent } from './jaeger.component.mts';
import { kafkaComponent } from './kafka.component.mts';
import { mailComponent } from './mail.component.mts';
import { assertPortsFree } from './port.check.mts';
import { postgresComponent } from './postgres.component.mts';
import { s3Component } from './s3.component.mts';
import { launchDetached, runningPid, terminate } from './process.supervisor.mts';
import { elapsed, say } from './progress.output.mts';
import type { ComponentName, StackConfig } from './stack.config.mts';
import { COMPONENT_PORTS, portSetting } from './stack.config.mts';

export const COMPONENT_BY_NAME: Readonly<Record<ComponentName, Component>> = {
  postgres: postgresComponent,
  kafka: kafkaComponent,
  connect: connectComponent,
  jaeger: jaegerComponent,
  s3: s3Component,
  mail: mailComponent,
};

export function pidFile(config: StackConfig, name: ComponentName): string {
  return join(config.layout.pids, `${name}.pid`);
}

export function logFile(config: StackConfig, name: ComponentName): string {
  return join(config.layout.logs, `${name}.log`);
}

export function findPid(config: StackConfig, component: Component): number | undefined {
  return runningPid(pidFile(config, component.name), component.marker(config));
}

/** Health that never throws: a refused connection is simply "not healthy". */
export function checkHealth(config: StackConfig, component: Component): Promise<boolean> {
  return component.isHealthy(config).catch(() => false);
}

export function ensureLayout(config: StackConfig): void {
  for (const dir of Object.values(config.layout)) mkdirSync(dir, { recursive: true });
}

export async function startComponent(config: StackConfig, component: Component): Promise<'reused' | 'started'> {
  const startedAt = Date.now();
  const log = logFile(config, component.name);
  const started = (): Promise<boolean> => (component.isStarted ?? component.isHealthy)(config);
  const existing = findPid(config, component);
  if (existing !== undefined) {
    // Ours and alive: maybe still starting from an earlier run, so wait rather than fail.
    await waitUntilHealthy(started, { what: component.name, timeoutMs: component.startTimeoutMs, pid: existing, logFile: log });
    await component.afterStart?.(config);
    say(component.name, `already running (pid ${existing}), reused`);
    return 'reused';
  }

  for (const dependency of component.dependsOn) {
    if (!(await checkHealth(config, COMPONENT_BY_NAME[dependency]))) {
      throw new InfraError('DEPENDENCY_DOWN', `${component.name} needs ${dependency}, which is not running: npm run infra:up -- ${dependency}`);
    }
  }
  await assertPortsFree(
    config.host,
    `the ${component.name} of the stack in ${config.layout.home}`,
    COMPONENT_PORTS[component.name].map((key) => ({ setting: portSetting(key), port: config.ports[key] })),
  );
  await component.provision(config);
  const plan = await component.prepare(config);
  say(component.name, 'starting…');
  const launchedAt = Date.now();
  const pid = launchDetached(
    { ...plan, logFile: log, pidFile: pidFile(config, component.name), marker: component.marker(config) },
    `longhaul infra: starting ${component.name}`,
  );
  try {
    await waitUntilHealthy(started, { what: component.name, timeoutMs: component.startTimeoutMs, pid, logFile: log });
    await component.afterStart?.(config);
    await waitUntilHealthy(() => component.isHealthy(config), { what: component.name, timeoutMs: 10_000, pid, logFile: log });
  } catch (error) {
    // Leave nothing half-started behind: the next `up` starts clean.
    await terminate(pid, component.stopSignal, component.stopGraceMs);
    rmSync(pidFile(config, component.name), { force: true });
    throw error;
  }
  say(component.name, `healthy (pid ${pid}, started in ${elapsed(launchedAt)}, ${elapsed(startedAt)} with provisioning; log ${log})`);
  return 'started';
}

export async function stopComponent(config: StackConfig, component: Component): Promise<void> {
  const pid = findPid(config, component);
  if (pid === undefined) {
    say(component.name, 'not running');
    return;
  }
  const stoppedAt = Date.now();
  const outcome = await terminate(pid, component.stopSignal, component.stopGraceMs);
  rmSync(pidFile(config, component.name), { force: true });
  const how = outcome === 'killed' ? `killed with SIGKILL after ${component.stopGraceMs / 1000}s` : `stopped (${component.stopSignal})`;
  say(component.name, `${how}, pid ${pid}, ${elapsed(stoppedAt)}`);
}
