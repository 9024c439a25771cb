import { simulatedJob } from './job-waits';
import { testEnv } from './test-env';

const env = testEnv();

afterAll(() => env.db.close());

/** The suites' `STEP_QUEUED_REPORT_MS` (SIMULATED_SERVICE_ENV). */
const REPORT_MS = 300;
const STEP_MS = 1500;

interface TranscodeItem {
  created_at: Date;
  started_at: Date;
  announced_at: Date | null;
  queued_at: string[];
  /** The api's record of the attempt: when it was queued at the worker. */
  attempt_queued_at: Date | null;
}

// A worker announces a request it cannot start at once (StepQueued) only once it has waited
// STEP_QUEUED_REPORT_MS unclaimed, by a pass that marks it announced; one that starts in a free
// slot is announced by its start alone. The transcoder has two fast slots here, so of four
// 1.5 s jobs sent at once at least two wait a whole step.
describe('a request waiting for a slot', () => {
  it('is announced with the time it was queued once it has waited STEP_QUEUED_REPORT_MS, and one started at once is not', async () => {
    const jobs = await Promise.all(Array.from({ length: 4 }, () => env.api.submitJob(simulatedJob({ 'sim.durationMs': String(STEP_MS) }))));
    for (const { body } of jobs) await env.api.waitForStatus(body.id, 'completed', 30_000);

    const items = await Promise.all(
      jobs.map(async ({ body }) => {
        const [item] = await env.db.rows<TranscodeItem>(
          `SELECT w.created_at, w.started_at, w.announced_at,
                  ARRAY(SELECT o.payload->>'queuedAt' FROM transcoder.outbox o
                         WHERE o.aggregateid = w.job_id::text AND o.type = 'StepQueued.v1') AS queued_at,
                  (SELECT a.queued_at FROM api.step_attempts a
                    WHERE a.job_id = w.job_id AND a.step = 'transcode' AND a.attempt = 1) AS attempt_queued_at
             FROM transcoder.work_items w
            WHERE w.job_id = $1 AND w.kind = 'transcode'`,
          [body.id],
        );
        return item!;
      }),
    );
    const waited = items.filter((item) => item.started_at.getTime() - item.created_at.getTime() >= STEP_MS - 200);
    expect(waited.length).toBeGreaterThanOrEqual(1);
    for (const item of items) {
      const wait = item.started_at.getTime() - item.created_at.getTime();
      if (wait >= REPORT_MS + 200) {
        // Announced once, after the delay, with when it was queued rather than when it was announced.
        expect(item.queued_at).toHaveLength(1);
        expect(Math.abs(new Date(item.queued_at[0]!).getTime() - item.created_at.getTime())).toBeLessThan(1);
        expect(item.announced_at!.getTime() - item.created_at.getTime()).toBeGreaterThanOrEqual(REPORT_MS);
        // …which is what the api records as the attempt's time in the queue.
        expect(Math.abs(item.attempt_queued_at!.getTime() - item.created_at.getTime())).toBeLessThan(1);
      } else if (wait === 0) {
        // Inserted already claimed in a free slot: nothing to announce.
        expect(item.queued_at).toEqual([]);
        expect(item.announced_at).toBeNull();
      }
    }
  });
});
