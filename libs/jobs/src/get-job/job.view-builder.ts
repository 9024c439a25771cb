import type { DownloadView, JobStepView, JobView, StepAttemptView } from '@longhaul/contracts';
import type { Sql } from '@longhaul/persistence';
import { traceIdOf } from '@longhaul/telemetry';
import { DeadLetterRepository } from '../dead-letters/dead-letter.repository';
import { JobRepository, type JobState } from '../job.repository';
import { StepAttemptRepository } from '../lifecycle/step-attempt.repository';
import { jobStage } from './job-stage';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** Builds the API view of a job from its state, attempt history and dead letter. */
export function toJobView(
  state: JobState,
  attempts: Map<string, StepAttemptView[]>,
  fingerprint: string | null,
  now: Date,
  downloads: DownloadView[] = [],
): JobView {
  const { job, steps } = state;
  return {
    id: job.id,
    type: job.type,
    status: job.status,
    stage: jobStage(job, steps, attempts, fingerprint, now),
    lane: job.lane,
    source: job.source,
    outputs: job.outputs,
    metadata: job.metadata,
    notify: job.notify ? { webhookUrl: job.notify.webhookUrl ?? null, email: job.notify.email ?? null } : null,
    media: job.media,
    result: job.result,
    downloads,
    error: job.error,
    steps: steps.map(
      (s): JobStepView => ({
        name: s.name,
        status: s.status,
        attempt: s.attempt,
        lane: s.lane,
        failures: s.failures,
        maxAttempts: s.maxAttempts,
        worker: s.worker,
        queuedAt: iso(s.queuedAt),
        startedAt: iso(s.startedAt),
        finishedAt: iso(s.finishedAt),
        relayedAt: iso(s.relayedAt),
        heartbeatAt: iso(s.heartbeatAt),
        progress: s.progress,
        retryAt: s.status === 'queued' && s.dispatchedAt === null ? iso(s.dueAt) : null,
        result: s.result,
        error: s.error,
        attempts: attempts.get(s.name) ?? [],
      }),
    ),
    traceId: traceIdOf(job.traceparent),
    createdAt: job.createdAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
    startedAt: iso(job.startedAt),
    finishedAt: iso(job.finishedAt),
  };
}

/** Builds the download list of a job from its steps' results. */
export type DownloadLinker = (jobId: string, stepResults: Record<string, Record<string, unknown>>) => Promise<DownloadView[]>;

/** Reads a job and everything its view shows, on the caller's connection. */
export async function loadJobView(sql: Sql, jobId: string, linkDownloads?: DownloadLinker, tenantId?: string): Promise<JobView | null> {
  const state = await new JobRepository().find(sql, jobId);
  // Another tenant's job is as good as missing: the caller answers 404, never 403.
  if (!state || (tenantId !== undefined && state.job.tenantId !== tenantId)) return null;
  const attempts = await new StepAttemptRepository().listByStep(sql, jobId);
  const dead = state.steps.find((s) => s.deadLetterId);
  const fingerprint = dead?.deadLetterId ? await new DeadLetterRepository().fingerprintOf(sql, dead.deadLetterId) : null;
  const [{ now }] = (await sql.rows<{ now: Date }>(`SELECT now() AS now`)) as [{ now: Date }];
  const stepResults: Record<string, Record<string, unknown>> = {};
  for (const step of state.steps) if (step.result) stepResults[step.name] = step.result;
  const downloads = linkDownloads ? await linkDownloads(jobId, stepResults) : [];
  return toJobView(state, attempts, fingerprint, now, downloads);
}
