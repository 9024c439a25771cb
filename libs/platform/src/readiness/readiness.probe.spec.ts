import type { ReadinessCheck } from './readiness.check';
import { ReadinessProbe } from './readiness.probe';

function check(name: string, run: ReadinessCheck['run'] = async () => undefined): ReadinessCheck & { calls: number } {
  const counted = {
    name,
    calls: 0,
    run: (signal: AbortSignal) => {
      counted.calls += 1;
      return run(signal);
    },
  };
  return counted;
}

describe('ReadinessProbe', () => {
  it('is ready when every check passes, and shows each', async () => {
    const report = await new ReadinessProbe([check('postgres'), check('kafka'), check('relay')]).report();
    expect(report.status).toBe('ready');
    expect(Object.keys(report.checks)).toEqual(['postgres', 'kafka', 'relay']);
    expect(report.checks['kafka']).toMatchObject({ status: 'ok' });
  });

  it('is not ready when one check fails, saying why', async () => {
    const report = await new ReadinessProbe([
      check('postgres'),
      check('relay', async () => {
        throw new Error('connector longhaul-outbox is FAILED');
      }),
    ]).report();
    expect(report.status).toBe('not_ready');
    expect(report.checks['postgres']!.status).toBe('ok');
    expect(report.checks['relay']).toMatchObject({ status: 'failed', error: 'connector longhaul-outbox is FAILED' });
  });

  it('fails a check that does not answer in time, and aborts it', async () => {
    let signal: AbortSignal | null = null;
    const hanging = check('kafka', (s) => {
      signal = s;
      return new Promise(() => undefined);
    });
    const started = Date.now();
    const report = await new ReadinessProbe([hanging], { timeoutMs: 30 }).report();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(report.checks['kafka']).toMatchObject({ status: 'failed', error: 'no answer within 30 ms' });
    expect(signal!.aborted).toBe(true);
  });

  it('reuses results for cacheMs and shares a run in flight', async () => {
    let now = 1_000;
    const postgres = check('postgres', () => new Promise((resolve) => setTimeout(resolve, 10)));
    const probe = new ReadinessProbe([postgres], { cacheMs: 2_000, now: () => now });
    await Promise.all([probe.report(), probe.report(), probe.report()]);
    expect(postgres.calls).toBe(1);
    now += 1_999;
    await probe.report();
    expect(postgres.calls).toBe(1);
    now += 1;
    await probe.report();
    expect(postgres.calls).toBe(2);
  });

  it('caches failures too, so a dead dependency is not hammered either', async () => {
    let now = 0;
    const relay = check('relay', async () => {
      throw new Error('down');
    });
    const probe = new ReadinessProbe([relay], { now: () => now });
    await probe.report();
    await probe.report();
    expect(relay.calls).toBe(1);
    now += 5_000;
    await probe.report();
    expect(relay.calls).toBe(2);
  });
});
