import { ServiceProcess } from './service.process';
import { stackEnv } from './services.harness';
import type { StackInfo } from './stack.harness';

/** One process of a fleet: which app, under which instance name. */
export interface FleetMember {
  app: string;
  /** Names the log file and identifies the instance in reports, e.g. `transcoder-2`. */
  instance: string;
}

/** Options of {@link startFleet}. */
export interface StartFleetOptions {
  stack: StackInfo;
  logDir: string;
  /** Port of the first member; the others follow in order. */
  basePort: number;
  /** Started in this order, one at a time. */
  members: readonly FleetMember[];
  /** Extra environment for every member. */
  env?: Record<string, string>;
  /** What each member must pass before it counts as started (`ServiceProcessOptions.readyChecks`). @defaultValue every check */
  readyChecks?: readonly string[];
}

/** Several instances of the Longhaul services running against one stack. */
export class ServiceFleet {
  constructor(readonly members: readonly ServiceProcess[]) {}

  /** The member named `instance`; throws for an unknown name, a typo in a fault plan. */
  get(instance: string): ServiceProcess {
    const member = this.members.find((m) => m.name === instance);
    if (!member) throw new Error(`no fleet member "${instance}"; known: ${this.members.map((m) => m.name).join(', ')}`);
    return member;
  }

  ofApp(app: string): ServiceProcess[] {
    return this.members.filter((m) => m.options.app === app);
  }

  /** Stops every member gracefully (a paused one is continued first so it can shut down). */
  async stop(): Promise<void> {
    await Promise.all(this.members.map((m) => m.stop('SIGTERM')));
  }
}

/**
 * Starts the members one after another and waits until each is ready. Several instances of an
 * app share its consumer group and work queue, as replicas in production would.
 */
export async function startFleet(options: StartFleetOptions): Promise<ServiceFleet> {
  const env = { LOG_LEVEL: 'info', ...stackEnv(options.stack), ...options.env };
  const fleet = new ServiceFleet(
    options.members.map(
      (member, index) =>
        new ServiceProcess({
          app: member.app,
          instance: member.instance,
          port: options.basePort + index,
          env,
          logDir: options.logDir,
          readyChecks: options.readyChecks,
        }),
    ),
  );
  try {
    // One at a time: cold starts at once on two cores only slow each other down.
    for (const member of fleet.members) await member.start();
  } catch (error) {
    await fleet.stop();
    throw error;
  }
  return fleet;
}
