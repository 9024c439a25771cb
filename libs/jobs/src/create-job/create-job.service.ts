import { Inject, Injectable } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { JOB_AGGREGATE, StepNames, type CreateJobRequest, type JobNotify, type JobView, type Lane } from '@longhaul/contracts';
import { appendToOutbox } from '@longhaul/outbox';
import { inTransaction, uuidv7, withConnection, type DataSource, type Sql } from '@longhaul/persistence';
import { DATA_SOURCE, METRICS_REGISTRY } from '@longhaul/platform';
import { currentTraceparent } from '@longhaul/telemetry';
import { assertWebhookUrlAllowed, jobWebhookSecret } from '@longhaul/webhooks';
import { API_SCHEMA } from '../api.migrations';
import { loadJobView } from '../get-job/job.view-builder';
import { IdempotencyKeyReusedError } from '../job.errors';
import { JobFeedWriter } from '../job-feed/job-feed.writer';
import { JobRepository } from '../job.repository';
import { jobsMetrics, type JobsMetrics } from '../jobs.metrics';
import { JOBS_OPTIONS, type JobsModuleOptions } from '../jobs.options';
import { buildStepRequest } from '../lifecycle/step.dispatcher';
import { StepAttemptRepository } from '../lifecycle/step-attempt.repository';
import { retryPolicyFor } from '../retry/retry.policy';
import { IdempotencyKeyRepository } from './idempotency-key.repository';
import { MEDIA_INTAKE, type MediaIntake } from './media-intake.port';
import { chooseLane, stepRequestRoute } from './lane.policy';
import { requestFingerprint } from './request-fingerprint';

/** How long an idempotency key is remembered. @defaultValue 24 h */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** An `Idempotency-Key` and whose it is. */
export interface IdempotencyKey {
  /** Whose key it is (the tenant): keys of different tenants never collide. */
  scope: string;
  key: string;
}

/** The outcome of a submit: the job, and whether it is an earlier submit replayed. */
export interface CreateJobResult {
  job: JobView;
  replayed: boolean;
}

/**
 * Accepts a job. First its input is made ready (`MediaIntake`: an upload looked up, or a URL
 * downloaded, and probed) and its lane chosen from the media's length. Then in ONE transaction: the job, its steps, the first attempt's history row, the
 * idempotency key and the outbox row `TranscodeRequested.v1`. No Kafka call is made: if Kafka or
 * Debezium is down the job is still accepted, and it flows when the relay returns.
 */
@Injectable()
export class CreateJobService {
  private readonly jobs = new JobRepository();
  private readonly keys = new IdempotencyKeyRepository();
  private readonly attempts = new StepAttemptRepository();
  private readonly feed = new JobFeedWriter();
  private readonly metrics: JobsMetrics;

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(JOBS_OPTIONS) private readonly options: JobsModuleOptions,
    @Inject(MEDIA_INTAKE) private readonly intake: MediaIntake,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    this.metrics = jobsMetrics(registry);
  }

  /**
   * `admit` runs once the request is known to be new (not an idempotent replay) and before any
   * write; it throws to refuse the job (admission control), which rolls everything back.
   */
  async create(
    request: CreateJobRequest,
    tenantId: string,
    idempotency: IdempotencyKey | null,
    admit: (lane: Lane) => void = () => undefined,
  ): Promise<CreateJobResult> {
    const fingerprint = requestFingerprint(request);
    // A replay must not fetch its source again: answer it before any intake work.
    const replay = idempotency ? await withConnection(this.dataSource, (sql) => this.replayOf(sql, idempotency, fingerprint)) : null;
    if (replay) return this.withSecret(replay);
    const notify = await this.checkedNotify(request);
    const id = uuidv7();
    // Outside the transaction: a URL source is downloaded and probed, which may take a while.
    const prepared = await this.intake.prepare(id, request.source, tenantId);
    try {
      const lane = chooseLane(request.outputs, prepared?.media.durationSeconds ?? null, this.options.lanes);
      admit(lane);
      const result = await inTransaction(this.dataSource, async (sql) => {
        // Checked again under the key's lock: a concurrent submit with the same key may have won.
        const raced = idempotency ? await this.replayOf(sql, idempotency, fingerprint, { lock: true }) : null;
        if (raced) return raced;
        const traceparent = currentTraceparent();
        const retryPolicy = retryPolicyFor(request.type, this.options.retry.byType, this.options.retry.fallback);
        const metadata = request.metadata ?? null;
        await this.jobs.insert(sql, {
          id,
          tenantId,
          type: request.type,
          lane,
          source: request.source,
          outputs: request.outputs,
          metadata,
          traceparent,
          retryPolicy,
          sourceKey: prepared?.sourceKey ?? null,
          media: prepared?.media ?? null,
          notify,
          steps: StepNames.map((name, position) => ({
            name,
            position,
            status: position === 0 ? 'queued' : 'pending',
            attempt: position === 0 ? 1 : 0,
            dispatched: position === 0,
          })),
        });
        // The feed starts with the status the job was accepted in (entry 1).
        await this.feed.jobStatus(sql, id, { status: 'pending' });
        const first = StepNames[0];
        await this.attempts.dispatched(sql, id, first, 1, lane);
        const job = { id, type: request.type, source: request.source, outputs: request.outputs, metadata };
        await appendToOutbox(sql, API_SCHEMA, {
          ...stepRequestRoute(first, lane),
          aggregateType: JOB_AGGREGATE,
          aggregateId: id,
          payload: buildStepRequest(job, first, 1, lane, {}),
          traceparent,
        });
        if (idempotency) await this.keys.insert(sql, idempotency.scope, idempotency.key, fingerprint, id, IDEMPOTENCY_KEY_TTL_MS);
        return { job: (await loadJobView(sql, id))!, replayed: false };
      });
      if (!result.replayed) this.metrics.accepted.inc({ type: request.type, lane });
      // Lost the race to a concurrent submit with the same key: its job stands, ours was never written.
      if (result.replayed && prepared) await this.intake.discard(prepared);
      return this.withSecret(result);
    } catch (error) {
      // Refused (429) or failed: a source fetched for this job must not outlive it.
      if (prepared) await this.intake.discard(prepared).catch(() => undefined);
      throw error;
    }
  }

  /**
   * The request's `notify`, its webhook URL checked (https, size, a public host: 400
   * `webhook_url_forbidden`) before anything is fetched or written.
   */
  private async checkedNotify(request: CreateJobRequest): Promise<JobNotify | null> {
    const notify = request.notify;
    if (!notify || (!notify.webhookUrl && !notify.email)) return null;
    if (!notify.webhookUrl) return { email: notify.email };
    const { allowHttp, allowPrivateAddresses } = this.options.notifications;
    const url = await assertWebhookUrlAllowed(notify.webhookUrl, { allowHttp, allowPrivate: allowPrivateAddresses }, 'notify.webhookUrl');
    return { ...notify, webhookUrl: url.href };
  }

  /** The submit answer shows the secret the job's own webhook requests are signed with. */
  private withSecret(result: CreateJobResult): CreateJobResult {
    const notify = result.job.notify;
    if (!notify?.webhookUrl) return result;
    const webhookSecret = jobWebhookSecret(this.options.notifications.signingKey, result.job.id);
    return { ...result, job: { ...result.job, notify: { ...notify, webhookSecret } } };
  }

  /** The job an earlier submit with this key created, or null; a different body is refused (422). */
  private async replayOf(sql: Sql, idempotency: IdempotencyKey, fingerprint: string, options: { lock?: boolean } = {}): Promise<CreateJobResult | null> {
    const existing = options.lock
      ? await this.keys.lockAndFind(sql, idempotency.scope, idempotency.key)
      : await this.keys.find(sql, idempotency.scope, idempotency.key);
    if (!existing) return null;
    if (existing.requestHash !== fingerprint) throw new IdempotencyKeyReusedError(idempotency.key);
    const job = await loadJobView(sql, existing.jobId);
    return job ? { job, replayed: true } : null;
  }
}
