import type { JobStageView, StepAttemptView } from '@longhaul/contracts';
import type { JobRecord, StepRecord } from '../job.repository';

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/**
 * Where a job is, hop by hop, and since when. Reads only what the api recorded: the relay's
 * confirmation (`StepQueued`), the worker's start and heartbeats, scheduled retries and dead
 * letters. `now` is passed in so the function stays pure.
 */
export function jobStage(
  job: JobRecord,
  steps: StepRecord[],
  attempts: Map<string, StepAttemptView[]>,
  fingerprint: string | null,
  now: Date,
): JobStageView {
  const finishedAt = iso(job.finishedAt) ?? job.updatedAt.toISOString();
  if (job.status === 'completed' || job.status === 'cancelled') return { state: job.status, step: null, since: finishedAt };
  if (job.status === 'failed') {
    const dead = steps.find((s) => s.status === 'dead');
    if (dead) {
      return {
        state: 'dead_lettered',
        step: dead.name,
        since: iso(dead.finishedAt) ?? finishedAt,
        attempt: dead.attempt,
        ...(dead.deadLetterId ? { deadLetterId: dead.deadLetterId } : {}),
        ...(fingerprint ? { fingerprint } : {}),
      };
    }
    const failed = steps.find((s) => s.status === 'failed');
    return { state: 'failed', step: failed?.name ?? null, since: finishedAt };
  }
  const step = steps.find((s) => s.status === 'running' || s.status === 'queued') ?? steps.find((s) => s.status === 'pending');
  if (!step) return { state: 'awaiting_relay', step: null, since: job.createdAt.toISOString() };
  const current = attempts.get(step.name)?.find((a) => a.attempt === step.attempt);
  if (step.status === 'running') {
    return {
      state: 'running',
      step: step.name,
      since: current?.startedAt ?? iso(step.startedAt) ?? step.updatedAt.toISOString(),
      lane: step.lane,
      attempt: step.attempt,
      worker: step.worker,
      heartbeatAt: iso(step.heartbeatAt),
      progress: step.progress,
    };
  }
  if (step.status === 'queued' && step.dispatchedAt === null && step.dueAt) {
    return { state: 'retry_scheduled', step: step.name, since: step.updatedAt.toISOString(), lane: step.lane, attempt: step.attempt, retryAt: step.dueAt.toISOString() };
  }
  const dispatchedAt = step.dispatchedAt ?? step.queuedAt ?? job.createdAt;
  const waitingMs = Math.max(0, now.getTime() - dispatchedAt.getTime());
  if (step.status === 'queued' && step.relayedAt) {
    return { state: 'queued', step: step.name, since: step.relayedAt.toISOString(), lane: step.lane, attempt: step.attempt, waitingMs };
  }
  return { state: 'awaiting_relay', step: step.name, since: dispatchedAt.toISOString(), lane: step.lane, attempt: step.attempt, waitingMs };
}
