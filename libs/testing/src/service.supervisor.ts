import type { ServiceExit, ServiceProcess } from './service.process';
import { sleep } from './wait-for';

/** Options of {@link ServiceSupervisor} and {@link startWithRetry}. */
export interface SupervisorOptions {
  /** Pause between start attempts while a dependency (e.g. Postgres) is still down. @defaultValue 2000 */
  retryIntervalMs?: number;
  /** Stop trying to start an instance after this long. @defaultValue 300000 */
  giveUpAfterMs?: number;
  /** Receives one line per death and restart, for the run's timeline. */
  onEvent?: (line: string) => void;
}

/** One unexpected death of an instance and what the supervisor did about it. */
export interface RestartRecord {
  instance: string;
  pid: number | undefined;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Epoch ms. */
  diedAt: number;
  /** Epoch ms when the instance was ready again; null if it never came back. */
  restartedAt: number | null;
  error?: string;
}

const DEFAULT_RETRY_INTERVAL_MS = 2_000;
const DEFAULT_GIVE_UP_AFTER_MS = 5 * 60_000;

/**
 * Starts `service`, retrying while its start fails (a service refuses to become ready while
 * Postgres restarts, for example), until `giveUpAfterMs` or until `cancelled()` says stop.
 */
export async function startWithRetry(
  service: ServiceProcess,
  options: SupervisorOptions & { cancelled?: () => boolean } = {},
): Promise<void> {
  const deadline = Date.now() + (options.giveUpAfterMs ?? DEFAULT_GIVE_UP_AFTER_MS);
  for (;;) {
    try {
      await service.start();
      return;
    } catch (error) {
      if (service.running) await service.stop('SIGKILL');
      if (Date.now() > deadline || options.cancelled?.()) throw error;
      await sleep(options.retryIntervalMs ?? DEFAULT_RETRY_INTERVAL_MS);
    }
  }
}

/**
 * Restarts an instance that died without the harness asking (a simulated crash, an unhandled
 * error), the way an orchestrator would, and counts those restarts. Exits the harness requested
 * (`stop`, `kill`) and failed starts are someone else's business and are left alone.
 */
export class ServiceSupervisor {
  private readonly records: RestartRecord[] = [];
  private readonly unsubscribes: Array<() => void> = [];
  private readonly reviving = new Map<ServiceProcess, Promise<void>>();
  private stopped = false;

  constructor(private readonly options: SupervisorOptions = {}) {}

  /** Every unexpected death seen so far, oldest first. */
  get restarts(): readonly RestartRecord[] {
    return this.records;
  }

  watch(services: readonly ServiceProcess[]): void {
    for (const service of services) {
      this.unsubscribes.push(service.onExit((exit) => this.onExit(service, exit)));
    }
  }

  /** Stops watching and waits for restarts in progress to finish or give up. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    await Promise.allSettled(this.reviving.values());
  }

  private onExit(service: ServiceProcess, exit: ServiceExit): void {
    if (this.stopped || exit.requested || exit.duringStart || this.reviving.has(service)) return;
    const record: RestartRecord = {
      instance: exit.instance,
      pid: exit.pid,
      code: exit.code,
      signal: exit.signal,
      diedAt: exit.at,
      restartedAt: null,
    };
    this.records.push(record);
    this.options.onEvent?.(`${exit.instance} (pid ${exit.pid}) died unexpectedly (code ${exit.code}, signal ${exit.signal}); restarting`);
    const revival = startWithRetry(service, { ...this.options, cancelled: () => this.stopped })
      .then(() => {
        record.restartedAt = Date.now();
        this.options.onEvent?.(`${exit.instance} restarted (pid ${service.pid})`);
      })
      .catch((error: unknown) => {
        record.error = (error as Error).message;
        this.options.onEvent?.(`${exit.instance} could not be restarted: ${record.error}`);
      })
      .finally(() => this.reviving.delete(service));
    this.reviving.set(service, revival);
  }
}
