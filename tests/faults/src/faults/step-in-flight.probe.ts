import { sleep, waitFor, type ServiceProcess } from '@longhaul/testing';
import type { FaultRunRepository } from '../evidence/fault-run.repository';

const POLL_MS = 50;
const READY_TIMEOUT_MS = 120_000;

/** The instance to hit, as it was when it was caught with work in hand. */
export interface CaughtInstance {
  pid: number | undefined;
  /** Running work items it held (0: none showed up in time). */
  held: number;
}

/**
 * Waits until `service` is ready and holds at least one running work item, so a kill or a
 * pause hits it mid-step rather than idle. If none shows up within `timeoutMs` it returns
 * `held: 0` and the fault goes ahead anyway (the report says so). If the instance died meanwhile
 * (a simulated crash) it waits for the supervisor's restart and tries again, so the fault never
 * races the restart.
 *
 * Workers name themselves `<service>-<host>-<pid>` as lease owner, so the PID the harness
 * started identifies the instance's leases.
 */
export async function catchStepInFlight(
  repository: FaultRunRepository,
  schema: 'transcoder' | 'thumbnailer',
  service: ServiceProcess,
  timeoutMs: number,
): Promise<CaughtInstance> {
  for (;;) {
    await waitFor(async () => service.ready, { timeoutMs: READY_TIMEOUT_MS, description: `${service.name} to be ready` });
    const pid = service.pid;
    const held = await heldItems(repository, schema, pid, timeoutMs);
    if (service.ready && service.pid === pid) return { pid, held };
  }
}

async function heldItems(repository: FaultRunRepository, schema: 'transcoder' | 'thumbnailer', pid: number | undefined, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const held = await repository.itemsInFlight(schema, `-${pid}`).catch(() => 0);
    if (held > 0) return held;
    await sleep(POLL_MS);
  }
  return 0;
}
