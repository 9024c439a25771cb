import type { JobStepView, JobView, StepAttemptView } from '@longhaul/contracts';
import { jobTimeline } from './step-timeline.model.js';

const T0 = Date.parse('2025-12-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

const attempt = (n: number, times: { dispatched: number; started?: number; finished?: number }, status: StepAttemptView['status']): StepAttemptView => ({
  attempt: n,
  lane: 'fast',
  status,
  worker: 'w-1',
  dispatchedAt: at(times.dispatched),
  queuedAt: null,
  startedAt: times.started === undefined ? null : at(times.started),
  finishedAt: times.finished === undefined ? null : at(times.finished),
  error: null,
});

const step = (name: JobStepView['name'], attempts: StepAttemptView[]): JobStepView =>
  ({ name, status: 'running', attempt: attempts.length, lane: 'fast', failures: 0, maxAttempts: 3, attempts }) as unknown as JobStepView;

const job = (steps: JobStepView[], finishedAt: string | null): JobView => ({ createdAt: at(0), finishedAt, steps }) as unknown as JobView;

describe('jobTimeline', () => {
  it('lays out waiting and running of every attempt on the job axis', () => {
    const timeline = jobTimeline(
      job(
        [
          // Sorted by attempt number whatever the order given.
          step('transcode', [attempt(2, { dispatched: 4000, started: 5000, finished: 8000 }, 'succeeded'), attempt(1, { dispatched: 0, started: 1000, finished: 3000 }, 'failed')]),
          step('thumbnail', [attempt(1, { dispatched: 8000, started: 9000, finished: 10_000 }, 'succeeded')]),
        ],
        at(10_000),
      ),
      T0 + 60_000,
    );
    expect(timeline.spanMs).toBe(10_000);
    const [first, second] = timeline.steps[0]!.bars;
    expect(first!.attempt.attempt).toBe(1);
    expect(first!.wait).toEqual({ startPercent: 0, widthPercent: 10 });
    expect(first!.run).toEqual({ startPercent: 10, widthPercent: 20 });
    expect(first!.waitMs).toBe(1000);
    expect(first!.runMs).toBe(2000);
    expect(second!.run).toEqual({ startPercent: 50, widthPercent: 30 });
    expect(timeline.steps[1]!.bars[0]!.run).toEqual({ startPercent: 90, widthPercent: 10 });
  });

  it('runs a job in progress up to now', () => {
    const timeline = jobTimeline(job([step('transcode', [attempt(1, { dispatched: 0, started: 2000 }, 'running')])], null), T0 + 4000);
    const [bar] = timeline.steps[0]!.bars;
    expect(timeline.spanMs).toBe(4000);
    expect(bar!.run).toEqual({ startPercent: 50, widthPercent: 50 });
    expect(bar!.runMs).toBe(2000);
  });

  it('shows an attempt that never started as waiting only', () => {
    const timeline = jobTimeline(job([step('transcode', [attempt(1, { dispatched: 0, finished: 1000 }, 'cancelled')])], at(1000)), T0 + 5000);
    const [bar] = timeline.steps[0]!.bars;
    expect(bar!.wait).toEqual({ startPercent: 0, widthPercent: 100 });
    expect(bar!.run).toBeNull();
    expect(bar!.runMs).toBeNull();
  });
});
