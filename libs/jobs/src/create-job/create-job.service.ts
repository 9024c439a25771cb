import { Inject, Injectable } from '@nestjs/common';
import {
  JOB_AGGREGATE,
  StepNames,
  type CreateJobRequest,
  type JobView,
  type StepRequestedV1,
} from '@longhaul/contracts';
import { appendToOutbox } from '@longhaul/outbox';
import { inTransaction, uuidv7, type DataSource } from '@longhaul/persistence';
import { DATA_SOURCE } from '@longhaul/platform';
import { currentTraceparent } from '@longhaul/telemetry';
import { API_SCHEMA } from '../api.migrations';
import { IdempotencyKeyReusedError } from '../job.errors';
import { JobRepository } from '../job.repository';
import { IdempotencyKeyRepository } from './idempotency-key.repository';
import { chooseLane, stepRequestRoute } from './lane.policy';
import { requestFingerprint } from './request-fingerprint';

/** How long an idempotency key is remembered. @defaultValue 24 h */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** An `Idempotency-Key` and whose it is. */
export interface IdempotencyKey {
  /** The client the key belongs to; keys of different clients never collide. */
  scope: string;
  key: string;
}

/** The outcome of a submit: the job, and whether it is an earlier submit replayed. */
export interface CreateJobResult {
  job: JobView;
  replayed: boolean;
}

/**
 * Accepts a job. In ONE transaction: the job, its steps, the idempotency key and the outbox row
 * `TranscodeRequested.v1`. No Kafka call is made: if Kafka or Debezium is down the job is still
 * accepted, and it flows when the relay returns.
 */
@Injectable()
export class CreateJobService {
  private readonly jobs = new JobRepository();
  private readonly keys = new IdempotencyKeyRepository();

  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async create(request: CreateJobRequest, idempotency: IdempotencyKey | null): Promise<CreateJobResult> {
    const fingerprint = requestFingerprint(request);
    return inTransaction(this.dataSource, async (sql) => {
      if (idempotency) {
        const existing = await this.keys.lockAndFind(sql, idempotency.scope, idempotency.key);
        if (existing) {
          if (existing.requestHash !== fingerprint) throw new IdempotencyKeyReusedError(idempotency.key);
          const job = await this.jobs.findView(sql, existing.jobId);
          if (job) return { job, replayed: true };
        }
      }

      const id = uuidv7();
      const lane = chooseLane(request);
      const traceparent = currentTraceparent();
      await this.jobs.insert(
        sql,
        { id, type: request.type, status: 'pending', lane, source: request.source, outputs: request.outputs,
          metadata: request.metadata ?? null, result: null, error: null, version: 0, traceparent },
        StepNames.map((name, position) => ({ name, position, status: position === 0 ? 'queued' : 'pending', attempt: position === 0 ? 1 : 0 })),
      );
      const payload: StepRequestedV1 = {
        jobId: id,
        step: 'transcode',
        attempt: 1,
        jobType: request.type,
        lane,
        source: request.source,
        outputs: request.outputs,
        inputs: {},
        requestedAt: new Date().toISOString(),
      };
      await appendToOutbox(sql, API_SCHEMA, {
        ...stepRequestRoute('transcode', lane),
        aggregateType: JOB_AGGREGATE,
        aggregateId: id,
        payload,
        traceparent,
      });
      if (idempotency) await this.keys.insert(sql, idempotency.scope, idempotency.key, fingerprint, id, IDEMPOTENCY_KEY_TTL_MS);
      const job = await this.jobs.findView(sql, id);
      return { job: job!, replayed: false };
    });
  }
}
