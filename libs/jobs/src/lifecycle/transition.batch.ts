import type { Sql } from '@longhaul/persistence';
import type { JobTransitionWrite } from './job-transition.writer';

/** Transitions of one job held back to be written by one statement (`JobTransitions.together`). */
export interface HeldTransitions {
  /** The job's version before the first of them. */
  fromVersion: number;
  writes: JobTransitionWrite[];
}

/** Per transaction, the jobs whose transitions are being held, by job id. */
const held = new WeakMap<Sql, Map<string, HeldTransitions>>();

/** Starts holding `jobId`'s transitions on `sql`; null when they are held already (an outer `together`). */
export function holdTransitions(sql: Sql, jobId: string, fromVersion: number): HeldTransitions | null {
  let jobs = held.get(sql);
  if (!jobs) held.set(sql, (jobs = new Map()));
  if (jobs.has(jobId)) return null;
  const transitions: HeldTransitions = { fromVersion, writes: [] };
  jobs.set(jobId, transitions);
  return transitions;
}

/** The transitions of `jobId` held on `sql`, if they are. */
export function heldTransitions(sql: Sql, jobId: string): HeldTransitions | undefined {
  return held.get(sql)?.get(jobId);
}

/** Stops holding `jobId`'s transitions on `sql` (what was held is the caller's to write or drop). */
export function releaseTransitions(sql: Sql, jobId: string): void {
  held.get(sql)?.delete(jobId);
}

