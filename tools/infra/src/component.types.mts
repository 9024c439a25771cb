/**
 * The contract every supervised component (postgres, kafka, connect, jaeger, s3, mail) fulfils.
 *
 * The orchestrator owns the lifecycle (reuse, port checks, pid and log files,
 * health waits, stop by PID); a component only says how to provision itself,
 * what process to run and how to tell that it is healthy.
 */
import type { ComponentName, StackConfig } from './stack.config.mts';

/** The process to launch; the orchestrator adds the log, pid file and detaching. */
export interface LaunchPlan {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly uid?: number;
  readonly gid?: number;
}

export interface Component {
  readonly name: ComponentName;
  /** Must be healthy before this one starts (connect needs kafka). */
  readonly dependsOn: readonly ComponentName[];
  /** How long a cold start may take before we give up and show the log. */
  readonly startTimeoutMs: number;
  /** Postgres wants SIGINT (fast shutdown); the JVMs and the Go servers take SIGTERM. */
  readonly stopSignal: NodeJS.Signals;
  /** Wait this long after stopSignal before SIGKILL. */
  readonly stopGraceMs: number;
  /** A string found in our process's command line and in no one else's (a path under $LONGHAUL_HOME). */
  marker(config: StackConfig): string;
  /** Download/build what is missing; a no-op once provisioned. */
  provision(config: StackConfig): Promise<void>;
  /** Write state (config files, formatted storage) and describe the process to start. */
  prepare(config: StackConfig): Promise<LaunchPlan>;
  /** Answers like a healthy instance (what `status` reports). */
  isHealthy(config: StackConfig): Promise<boolean>;
  /** Accepts work well enough to run `afterStart`; defaults to isHealthy. */
  isStarted?(config: StackConfig): Promise<boolean>;
  /** Idempotent set-up once the process answers, on every `up` (roles, databases…). */
  afterStart?(config: StackConfig): Promise<void>;
}
