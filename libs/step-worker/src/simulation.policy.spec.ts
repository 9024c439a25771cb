import { drawOutcome, planSimulation, type SimulationDefaults } from './simulation.policy';

const quiet: SimulationDefaults = { stepMs: 200, rates: { failure: 0, fatal: 0, hang: 0, crash: 0 } };
const never = () => {
  throw new Error('no draw expected');
};

function request(metadata: Record<string, string> | null, attempt = 1, step: 'transcode' | 'thumbnail' = 'transcode') {
  return { step, attempt, metadata };
}

describe('planSimulation', () => {
  it('succeeds after the configured time when nothing says otherwise', () => {
    expect(planSimulation(request(null), quiet, () => 0.5)).toEqual({ outcome: 'succeed', durationMs: 200 });
  });

  it('follows sim.outcome and sim.durationMs without drawing', () => {
    const rates = { ...quiet, rates: { failure: 1, fatal: 0, hang: 0, crash: 0 } };
    expect(planSimulation(request({ 'sim.outcome': 'hang', 'sim.durationMs': '5000' }), rates, never)).toEqual({ outcome: 'hang', durationMs: 5000 });
    expect(planSimulation(request({ 'sim.outcome': 'succeed' }), rates, never).outcome).toBe('succeed');
    expect(planSimulation(request({ 'sim.outcome': 'fatal' }), quiet, never).outcome).toBe('fatal');
  });

  it('fails attempts up to sim.failTimes retryably, then succeeds (or does as sim.outcome says)', () => {
    const directives = { 'sim.failTimes': '2' };
    expect([1, 2, 3, 4].map((a) => planSimulation(request(directives, a), quiet, never).outcome)).toEqual(['fail', 'fail', 'succeed', 'succeed']);
    expect(planSimulation(request({ ...directives, 'sim.outcome': 'fatal' }, 3), quiet, never).outcome).toBe('fatal');
  });

  it('applies directives only to the step sim.step names; other steps follow the rates', () => {
    const directives = { 'sim.step': 'thumbnail', 'sim.outcome': 'crash', 'sim.durationMs': '10' };
    expect(planSimulation(request(directives, 1, 'thumbnail'), quiet, never)).toEqual({ outcome: 'crash', durationMs: 10 });
    expect(planSimulation(request(directives, 1, 'transcode'), quiet, () => 0.9)).toEqual({ outcome: 'succeed', durationMs: 200 });
  });

  it('refuses a malformed directive as a non-retryable validation failure', () => {
    const malformed: Array<Record<string, string>> = [{ 'sim.outcome': 'explode' }, { 'sim.failTimes': 'two' }, { 'sim.durationMs': '-5' }];
    for (const bad of malformed) {
      expect(() => planSimulation(request(bad), quiet, never)).toThrow(expect.objectContaining({ code: 'validation_failed', retryable: false }));
    }
  });

  it('draws once against the rates when no directive decides', () => {
    const random = jest.fn(() => 0.05);
    const defaults = { ...quiet, rates: { failure: 0.1, fatal: 0, hang: 0, crash: 0 } };
    expect(planSimulation(request({ 'sim.durationMs': '1' }), defaults, random)).toEqual({ outcome: 'fail', durationMs: 1 });
    expect(random).toHaveBeenCalledTimes(1);
  });
});

describe('drawOutcome', () => {
  const rates = { crash: 0.1, hang: 0.1, fatal: 0.1, failure: 0.1 };

  it('splits [0, 1) by the rates in the order crash, hang, fatal, failure', () => {
    expect([0, 0.15, 0.25, 0.35, 0.4, 0.99].map((d) => drawOutcome(rates, d))).toEqual(['crash', 'hang', 'fatal', 'fail', 'succeed', 'succeed']);
  });

  it('never picks an outcome whose rate is zero', () => {
    const onlyFailures = { crash: 0, hang: 0, fatal: 0, failure: 1 };
    expect([0, 0.5, 0.999].map((d) => drawOutcome(onlyFailures, d))).toEqual(['fail', 'fail', 'fail']);
  });
});
