import type { JobView, StepAttemptView, StepName } from '@longhaul/contracts';
import { toJobView } from '../get-job/job.view-builder';
import type { JobState } from '../job.repository';
import type { JobAcceptance } from './job-acceptance.writer';

/**
 * The view of a job just accepted, built from what submit wrote and the database time it was
 * stamped with, without reading it back: every column not written takes its default (no
 * result, no error, no worker, no failures), so this is what `GET /v1/jobs/{id}` shows until
 * a worker picks the first step up.
 */
export function acceptedJobView(acceptance: JobAcceptance, now: Date): JobView {
  const { job, firstStep } = acceptance;
  const state: JobState = {
    job: {
      id: job.id,
      tenantId: job.tenantId,
      type: job.type,
      status: 'pending',
      lane: job.lane,
      source: job.source,
      outputs: job.outputs,
      metadata: job.metadata,
      result: null,
      error: null,
      version: 0,
      lifecycleVersion: 0,
      traceparent: job.traceparent,
      retryPolicy: job.retryPolicy,
      sourceKey: job.sourceKey,
      media: job.media,
      notify: job.notify,
      createdAt: now,
      updatedAt: now,
      startedAt: null,
      finishedAt: null,
    },
    steps: job.steps.map((step) => ({
      jobId: job.id,
      name: step.name,
      position: step.position,
      status: step.status,
      attempt: step.attempt,
      lane: job.lane,
      failures: 0,
      maxAttempts: job.retryPolicy.maxAttempts,
      worker: null,
      queuedAt: step.status === 'queued' ? now : null,
      startedAt: null,
      finishedAt: null,
      dispatchedAt: step.dispatched ? now : null,
      relayedAt: null,
      dueAt: null,
      heartbeatAt: null,
      progress: null,
      deadLetterId: null,
      result: null,
      error: null,
      updatedAt: now,
    })),
  };
  const first: StepAttemptView = {
    attempt: 1,
    lane: job.lane,
    status: 'dispatched',
    worker: null,
    dispatchedAt: now.toISOString(),
    queuedAt: null,
    startedAt: null,
    finishedAt: null,
    error: null,
  };
  return toJobView(state, new Map<StepName, StepAttemptView[]>([[firstStep, [first]]]), null, now);
}
