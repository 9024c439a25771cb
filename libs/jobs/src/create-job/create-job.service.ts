import { Inject, Injectable } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { JOB_AGGREGATE, StepNames, type CreateJobRequest, type JobNotify, type JobView, type Lane } from '@longhaul/contracts';
import { inTransaction, uuidv7, withConnection, type DataSource, type Sql } from '@longhaul/persistence';
import { DATA_SOURCE, METRICS_REGISTRY } from '@longhaul/platform';
import { currentTraceparent } from '@longhaul/telemetry';
import { assertWebhookUrlAllowed, jobWebhookSecret } from '@longhaul/webhooks';
import { loadJobView } from '../get-job/job.view-builder';
import { IdempotencyKeyReusedError } from '../job.errors';
import { acceptedFeedEntry } from '../job-feed/job-feed.writer';
import { jobsMetrics, type JobsMetrics } from '../jobs.metrics';
import { JOBS_OPTIONS, type JobsModuleOptions } from '../jobs.options';
import { buildStepRequest } from '../lifecycle/step.dispatcher';
import { retryPolicyFor } from '../retry/retry.policy';
import { AcceptanceBatcher } from './acceptance.batcher';
import { acceptedJobView } from './accepted-job.view';
import { IdempotencyKeyRepository } from './idempotency-key.repository';
import { JobAcceptanceWriter, type JobAcceptance } from './job-acceptance.writer';
import { MEDIA_INTAKE, type MediaIntake, type PreparedSource } from './media-intake.port';
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
 * downloaded, and probed) and its lane chosen from the media's length. Then in ONE transaction —
 * one statement, `JobAcceptanceWriter` — the job, its steps, the first attempt's history row,
 * feed entry 1, the idempotency key and the outbox row of the first step request; submits
 * without a key that arrive while the database is busy share that statement and its commit
 * (`AcceptanceBatcher`), each answered once its job is durable. No Kafka call
 * is made: if Kafka or Debezium is down the job is still accepted, and it flows when the relay
 * returns. The 202's view is built from what was written, not read back.
 */
@Injectable()
export class CreateJobService {
  private readonly acceptances = new JobAcceptanceWriter();
  /** Submits without a key: written together when they arrive while the database is busy. */
  private readonly batcher: AcceptanceBatcher;
  private readonly keys = new IdempotencyKeyRepository();
  private readonly metrics: JobsMetrics;

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(JOBS_OPTIONS) private readonly options: JobsModuleOptions,
    @Inject(MEDIA_INTAKE) private readonly intake: MediaIntake,
    @Inject(METRICS_REGISTRY) registry: Registry,
  ) {
    this.metrics = jobsMetrics(registry);
    this.batcher = new AcceptanceBatcher(dataSource, this.acceptances);
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
    // Only a keyed submit is compared with an earlier one: the canonical JSON costs a walk of the body.
    const keyed = idempotency ? { ...idempotency, fingerprint: requestFingerprint(request) } : null;
    // A replay must not fetch its source again: answer it before any intake work.
    const replay = keyed ? await withConnection(this.dataSource, (sql) => this.replayOf(sql, keyed)) : null;
    if (replay) return this.withSecret(replay);
    const notify = await this.checkedNotify(request);
    const id = uuidv7();
    // Outside the transaction: a URL source is downloaded and probed, which may take a while.
    const prepared = await this.intake.prepare(id, request.source, tenantId);
    try {
      const lane = chooseLane(request.outputs, prepared?.media.durationSeconds ?? null, this.options.lanes);
      admit(lane);
      const acceptance = this.acceptance(id, tenantId, request, lane, notify, prepared, keyed);
      // Without a key the one statement is the whole transaction (shared with the submits that
      // came while the database was busy: AcceptanceBatcher). With one, it runs after the key's
      // lock, under which a concurrent submit with the same key may be found to have won.
      const result = keyed
        ? await inTransaction(this.dataSource, async (sql) => {
            const raced = await this.replayOf(sql, keyed, { lock: true });
            return raced ?? this.write(sql, acceptance);
          })
        : { job: acceptedJobView(acceptance, await this.batcher.write(acceptance)), replayed: false };
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

  /** What submit writes for the job: its row and steps, feed entry 1, the first step request, the key. */
  private acceptance(
    id: string,
    tenantId: string,
    request: CreateJobRequest,
    lane: Lane,
    notify: JobNotify | null,
    prepared: PreparedSource | null,
    idempotency: (IdempotencyKey & { fingerprint: string }) | null,
  ): JobAcceptance {
    const traceparent = currentTraceparent();
    const metadata = request.metadata ?? null;
    const first = StepNames[0];
    const job = { id, type: request.type, source: request.source, outputs: request.outputs, metadata };
    return {
      job: {
        ...job,
        tenantId,
        lane,
        traceparent,
        retryPolicy: retryPolicyFor(request.type, this.options.retry.byType, this.options.retry.fallback),
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
      },
      // The feed starts with the status the job was accepted in (entry 1).
      feedEntry: acceptedFeedEntry(id, new Date()),
      firstStep: first,
      request: {
        ...stepRequestRoute(first, lane),
        aggregateType: JOB_AGGREGATE,
        aggregateId: id,
        payload: buildStepRequest(job, first, 1, lane, {}),
        traceparent,
      },
      key: idempotency
        ? { scope: idempotency.scope, key: idempotency.key, requestHash: idempotency.fingerprint, ttlMs: IDEMPOTENCY_KEY_TTL_MS }
        : null,
    };
  }

  private async write(sql: Sql, acceptance: JobAcceptance): Promise<CreateJobResult> {
    const now = await this.acceptances.write(sql, acceptance);
    return { job: acceptedJobView(acceptance, now), replayed: false };
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
  private async replayOf(sql: Sql, idempotency: IdempotencyKey & { fingerprint: string }, options: { lock?: boolean } = {}): Promise<CreateJobResult | null> {
    const existing = options.lock
      ? await this.keys.lockAndFind(sql, idempotency.scope, idempotency.key)
      : await this.keys.find(sql, idempotency.scope, idempotency.key);
    if (!existing) return null;
    if (existing.requestHash !== idempotency.fingerprint) throw new IdempotencyKeyReusedError(idempotency.key);
    const job = await loadJobView(sql, existing.jobId);
    return job ? { job, replayed: true } : null;
  }
}
