import { EventTypes, Topics } from '@longhaul/contracts';
import type { EffectLedger } from '@longhaul/persistence';
import { recordingSql } from '@longhaul/persistence/testing';
import type { Logger } from '@longhaul/telemetry';
import type { JobRecord, StepRecord } from '../job.repository';
import { JobTransitions } from './job.transitions';
import { StepDispatcher } from './step.dispatcher';

const JOB_ID = '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b';
const silent = { info: () => undefined, warn: () => undefined } as unknown as Logger;
const ledger = { record: async () => undefined } as unknown as EffectLedger;

const job = (): JobRecord =>
  ({ id: JOB_ID, type: 'video.process', status: 'running', lane: 'fast', version: 4, source: {}, outputs: {}, metadata: null, traceparent: null } as unknown as JobRecord);
const steps = (): StepRecord[] => [
  { jobId: JOB_ID, name: 'transcode', position: 0, status: 'succeeded', attempt: 1, lane: 'fast', result: { renditions: [] } },
  { jobId: JOB_ID, name: 'thumbnail', position: 1, status: 'pending', attempt: 0, lane: 'fast', result: null, worker: 'old' },
] as unknown as StepRecord[];

describe('StepDispatcher', () => {
  it('sends the request in its own statement when no move of the step is held', async () => {
    const { sql, sent } = recordingSql();
    const [, thumbnail] = steps();
    await new StepDispatcher().dispatch(sql, job(), steps(), { ...thumbnail!, status: 'queued', attempt: 1 });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain("INSERT INTO api.step_attempts (job_id, step, attempt, lane, status) VALUES ($1, $2, $3, $4, 'dispatched')");
    expect(sent[0]!.params).toEqual(expect.arrayContaining([Topics.thumbnailRequests, EventTypes.ThumbnailRequestedV1]));
  });

  it('puts the request, its attempt row and the dispatch stamp in the statement of the held move that queued the step', async () => {
    let version = 4;
    const { sql, sent } = recordingSql({ rows: (_text, params) => [{ version: (version += 1), seq: params.length }] });
    const transitions = new JobTransitions(silent, ledger);
    const record = job();
    const all = steps();
    const thumbnail = all[1]!;
    await transitions.together(sql, record, async () => {
      await transitions.moveStep(sql, record, thumbnail, 'queued', { attempt: 1 });
      await new StepDispatcher().dispatch(sql, record, all, thumbnail);
    });
    expect(sent).toHaveLength(1);
    const [statement] = sent;
    expect(statement!.text).toMatch(/step_1 AS \(UPDATE api\.job_steps SET .*dispatched_at = now\(\), relayed_at = \$\d+/);
    expect(statement!.text).toContain("dispatched_1 AS (INSERT INTO api.step_attempts (job_id, step, attempt, lane, status)");
    // The outbox columns go as arrays: the request (the step's transition is on the feed only, by default).
    const types = statement!.params.find((p) => Array.isArray(p) && p.includes(EventTypes.ThumbnailRequestedV1));
    expect(types).toEqual([EventTypes.ThumbnailRequestedV1]);
    const request = JSON.parse((statement!.params.find((p) => Array.isArray(p) && String(p[0]).includes('"inputs"')) as string[])[0]!) as Record<string, unknown>;
    expect(request).toMatchObject({ jobId: JOB_ID, step: 'thumbnail', attempt: 1, inputs: { transcode: { renditions: [] } } });
    expect(thumbnail).toMatchObject({ status: 'queued', attempt: 1, worker: null, dispatchedAt: expect.any(Date) });
  });
});
