/**
 * Per-job order of `job.lifecycle`: every event of a job (`JobStarted`, `StepTransitioned`,
 * `JobCompleted`…) carries the job's `version`, one sequence shared by all of them, and the
 * version of the job's event published before it (`previousVersion`, 0 for its first). Read in
 * arrival order (one job's events share a partition), after dropping redeliveries, each event
 * must link to the one before it: its `previousVersion` is the last version seen of the job, and
 * its `version` is higher. A broken link is a lost event, or one out of order or written twice
 * under two ids. Step events and starts are published only with `LIFECYCLE_STEP_EVENTS` and
 * `LIFECYCLE_START_EVENTS`, so versions may skip; an event without `previousVersion` (written
 * before the field) must be the last plus 1.
 */

/** The parts of a consumed message the check reads. */
export interface LifecycleMessage {
  key: string | null;
  value: string | null;
  headers: Record<string, string>;
}

export type LifecycleViolationKind =
  /** The message cannot be read: no `id` header, a value that is not JSON, no integer version. */
  | 'unreadable'
  /** One event id seen with two different contents: not a redelivery but two events. */
  | 'conflicting_duplicate'
  /** An event that does not link to the last one seen (see the module's comment). */
  | 'out_of_order'
  /** The job's last version seen is below the version the job is known to have reached. */
  | 'tail_missing';

export interface LifecycleViolation {
  jobId: string;
  kind: LifecycleViolationKind;
  detail: string;
}

export interface LifecycleOrderResult {
  /** Jobs with at least one event. */
  jobs: number;
  /** Events kept after dropping redeliveries. */
  events: number;
  /** Redeliveries dropped (same `id` header, same content). */
  duplicatesDropped: number;
  violations: LifecycleViolation[];
}

/** Options of {@link checkLifecycleOrder}. */
export interface LifecycleOrderOptions {
  /**
   * The version each job is known to have reached (e.g. `api.jobs.version`): a job whose events
   * stop short of it lost its last events. Jobs not in the map are not checked for a tail.
   */
  expectedLastVersion?: ReadonlyMap<string, number>;
}

interface ReadEvent {
  id: string;
  jobId: string;
  version: number;
  /** The version the event says came before it; null when the event predates the field. */
  previousVersion: number | null;
  type: string;
  fingerprint: string;
}

function readEvent(message: LifecycleMessage): ReadEvent | { jobId: string; error: string } {
  const fallbackJob = message.key ?? '(no key)';
  const id = message.headers['id'];
  if (!id) return { jobId: fallbackJob, error: 'no id header' };
  let payload: unknown;
  try {
    payload = JSON.parse(message.value ?? '');
  } catch {
    return { jobId: fallbackJob, error: `event ${id}: value is not JSON` };
  }
  const { jobId, version, previousVersion } = (payload ?? {}) as { jobId?: unknown; version?: unknown; previousVersion?: unknown };
  const job = typeof jobId === 'string' ? jobId : fallbackJob;
  if (typeof version !== 'number' || !Number.isInteger(version)) return { jobId: job, error: `event ${id}: no integer version` };
  if (previousVersion !== undefined && previousVersion !== null && !(typeof previousVersion === 'number' && Number.isInteger(previousVersion))) {
    return { jobId: job, error: `event ${id}: previousVersion is not an integer` };
  }
  const type = message.headers['eventType'] ?? '(no eventType)';
  return { id, jobId: job, version, previousVersion: previousVersion ?? null, type, fingerprint: `${type}|${message.value}` };
}

/** The highest version seen per job, redeliveries and all; to wait until a job's last event arrived. */
export function lastVersionByJob(messages: readonly LifecycleMessage[]): Map<string, number> {
  const last = new Map<string, number>();
  for (const message of messages) {
    const event = readEvent(message);
    if ('error' in event) continue;
    last.set(event.jobId, Math.max(last.get(event.jobId) ?? 0, event.version));
  }
  return last;
}

/** Checks each job's lifecycle versions in arrival order. Pure. */
export function checkLifecycleOrder(messages: readonly LifecycleMessage[], options: LifecycleOrderOptions = {}): LifecycleOrderResult {
  const violations: LifecycleViolation[] = [];
  const seen = new Map<string, string>();
  const last = new Map<string, number>();
  let events = 0;
  let duplicatesDropped = 0;

  for (const message of messages) {
    const event = readEvent(message);
    if ('error' in event) {
      violations.push({ jobId: event.jobId, kind: 'unreadable', detail: event.error });
      continue;
    }
    const earlier = seen.get(event.id);
    if (earlier !== undefined) {
      // At-least-once delivery: a relay restart may send an event again under its own id.
      if (earlier === event.fingerprint) duplicatesDropped += 1;
      else violations.push({ jobId: event.jobId, kind: 'conflicting_duplicate', detail: `event ${event.id} seen with two contents` });
      continue;
    }
    seen.set(event.id, event.fingerprint);
    events += 1;
    const previous = last.get(event.jobId) ?? 0;
    const linked = event.previousVersion === null ? event.version === previous + 1 : event.previousVersion === previous && event.version > previous;
    if (!linked) {
      const after = previous === 0 ? 'as its first event' : `after v${previous}`;
      const link = event.previousVersion === null ? '' : ` (linked to v${event.previousVersion})`;
      violations.push({ jobId: event.jobId, kind: 'out_of_order', detail: `${event.type} v${event.version}${link} ${after}` });
    }
    // Follow the sequence from what arrived, so one gap is reported once, not for every later event.
    last.set(event.jobId, Math.max(previous, event.version));
  }

  for (const [jobId, expected] of options.expectedLastVersion ?? []) {
    const reached = last.get(jobId) ?? 0;
    if (expected > 0 && reached < expected) {
      violations.push({ jobId, kind: 'tail_missing', detail: `events end at v${reached}, the job is at v${expected}` });
    }
  }
  return { jobs: last.size, events, duplicatesDropped, violations };
}
