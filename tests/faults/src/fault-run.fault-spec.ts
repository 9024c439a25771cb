import { loadFaultRunConfig } from './fault-run.config';
import { FaultRun, type FaultRunResult } from './fault-run.orchestrator';

/**
 * One scenario: ~500+ jobs submitted at a steady rate while workers are killed and frozen, the
 * relay, Kafka and Postgres are stopped, and malformed messages are injected; then every
 * invariant below is judged on what the system recorded. Times to recover are reported in
 * tmp/faults-report.md, never asserted.
 */
const run = new FaultRun(loadFaultRunConfig());
let result: FaultRunResult;

beforeAll(async () => {
  result = await run.execute();
}, 25 * 60_000);

afterAll(() => run.dispose(), 5 * 60_000);

describe('Longhaul under crashes, pauses, outages and malformed messages', () => {
  it('accepts every submit, retried under the same Idempotency-Key through outages', () => {
    expect(result.verdict.submitsAccepted.violations).toEqual([]);
  });

  it('answers 202 at once to submits made while Kafka or Kafka Connect is down', () => {
    expect(result.verdict.acceptedWhileDown.violations).toEqual([]);
  });

  it('loses no accepted job, and every one finishes', () => {
    expect(result.verdict.noJobLost.violations).toEqual([]);
  });

  it('applies no effect twice', () => {
    expect(result.verdict.effectsOnce.violations).toEqual([]);
  });

  it('applies no result of a superseded attempt', () => {
    expect(result.verdict.noSupersededResult.violations).toEqual([]);
  });

  it("publishes each job's lifecycle events in order, each linked to the one before (previousVersion), none missing", () => {
    expect(result.verdict.lifecycleOrder.violations).toEqual([]);
  });

  it('completes jobs, and the probe job after every fault', () => {
    expect(result.verdict.jobsAndProbesCompleted.violations).toEqual([]);
  });
});
