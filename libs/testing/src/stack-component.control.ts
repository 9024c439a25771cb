import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { workspaceRoot } from './stack.harness';

/** A native stack component that can be stopped and started by PID. */
export type StackComponent = 'postgres' | 'kafka' | 'connect' | 'jaeger' | 's3' | 'mail';

/**
 * Stops one native component by its PID, like {@link stopComponent}, without blocking the
 * event loop: a test that keeps submitting jobs or supervising processes during the outage
 * must go on doing so while the infra CLI works.
 */
export function stopComponentAsync(component: StackComponent): Promise<void> {
  return runInfraCli(['stop', component]);
}

/**
 * Starts one native component again and resolves once it is healthy (and, for a component
 * the relay depends on, once the connector streams again), like {@link startComponent}.
 */
export function startComponentAsync(component: StackComponent): Promise<void> {
  return runInfraCli(['start', component]);
}

function runInfraCli(args: string[]): Promise<void> {
  const root = workspaceRoot();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'tools/infra/src/cli.mts'), ...args], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`infra ${args.join(' ')} failed (exit ${code ?? signal})`));
    });
  });
}
