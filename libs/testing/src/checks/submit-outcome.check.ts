import { TERMINAL_JOB_STATUSES, type JobStatus } from '@longhaul/contracts';

/**
 * What the clients saw: every submit is eventually accepted (retried under the same
 * Idempotency-Key through outages), submits made while the relay or Kafka is down are accepted
 * at once, and every accepted job is in the database and finished.
 */

/** One HTTP attempt of a submit. */
export interface SubmitAttempt {
  /** Epoch ms when the request was sent. */
  at: number;
  /** The HTTP status, or null for a connection error or timeout. */
  status: number | null;
  /** The job id of a 202. */
  jobId?: string;
  /** A 202 with `Idempotent-Replayed: true`: the job an earlier attempt created. */
  replayed?: boolean;
  error?: string;
}

/** One job submitted under one Idempotency-Key, with every attempt it took. */
export interface SubmitRecord {
  key: string;
  /** `load` for the steady stream, `probe` for the recovery probes. */
  kind: 'load' | 'probe';
  attempts: SubmitAttempt[];
  /** The accepted job; null until a 202. */
  jobId: string | null;
}

/** A stretch of time during which something was down. Epoch ms, both ends included. */
export interface TimeWindow {
  label: string;
  from: number;
  to: number;
}

/** How submits fared during one window. */
export interface WindowSubmits {
  label: string;
  /** Attempts sent inside the window. */
  attempts: number;
  /** Of those, answered 202. */
  accepted: number;
  /** The others: key, when, and what came back. */
  refused: Array<{ key: string; at: number; status: number | null; error?: string }>;
}

/** Every attempt sent during `window` and how it was answered. Pure. */
export function submitsDuring(records: readonly SubmitRecord[], window: TimeWindow): WindowSubmits {
  const result: WindowSubmits = { label: window.label, attempts: 0, accepted: 0, refused: [] };
  for (const record of records) {
    for (const attempt of record.attempts) {
      if (attempt.at < window.from || attempt.at > window.to) continue;
      result.attempts += 1;
      if (attempt.status === 202) result.accepted += 1;
      else result.refused.push({ key: record.key, at: attempt.at, status: attempt.status, ...(attempt.error ? { error: attempt.error } : {}) });
    }
  }
  return result;
}

/** A job as the database holds it. */
export interface StoredJob {
  id: string;
  status: string;
}

/** The reconciliation of what was accepted with what is stored. */
export interface AcceptedJobsResult {
  submitted: number;
  /** Submits that got a 202. */
  accepted: number;
  distinctJobIds: number;
  /** Accepted job ids found in the database. */
  found: number;
  /** Keys that never got a 202. */
  unaccepted: string[];
  /** Accepted job ids not in the database: lost jobs. */
  missing: string[];
  /** Accepted jobs found in a status that is not terminal. */
  notTerminal: StoredJob[];
  /** Job ids that two different keys were answered with: one key's job went missing. */
  sharedJobIds: string[];
}

/** Reconciles the submits with the jobs read back for their ids. Pure. */
export function reconcileAcceptedJobs(records: readonly SubmitRecord[], stored: readonly StoredJob[]): AcceptedJobsResult {
  const byId = new Map(stored.map((job) => [job.id, job]));
  const keysById = new Map<string, string[]>();
  const unaccepted: string[] = [];
  for (const record of records) {
    if (record.jobId === null) unaccepted.push(record.key);
    else keysById.set(record.jobId, [...(keysById.get(record.jobId) ?? []), record.key]);
  }
  const ids = [...keysById.keys()];
  const found = ids.filter((id) => byId.has(id));
  return {
    submitted: records.length,
    accepted: records.length - unaccepted.length,
    distinctJobIds: ids.length,
    found: found.length,
    unaccepted,
    missing: ids.filter((id) => !byId.has(id)),
    notTerminal: found.map((id) => byId.get(id)!).filter((job) => !TERMINAL_JOB_STATUSES.includes(job.status as JobStatus)),
    sharedJobIds: [...keysById].filter(([, keys]) => keys.length > 1).map(([id]) => id),
  };
}
