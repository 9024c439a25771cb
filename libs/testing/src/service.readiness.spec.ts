import { meetsReadiness } from './service.process';

const answer = (postgres: string, kafka: string, relay: string) => ({
  status: 'not_ready',
  checks: { postgres: { status: postgres }, kafka: { status: kafka }, relay: { status: relay } },
});

describe('meetsReadiness', () => {
  it('takes a 200 as ready whatever is asked', () => {
    expect(meetsReadiness(200, null)).toBe(true);
    expect(meetsReadiness(200, null, ['postgres'])).toBe(true);
  });

  it('needs a 200 when no checks are named', () => {
    expect(meetsReadiness(503, answer('ok', 'ok', 'failed'))).toBe(false);
  });

  it('takes a 503 whose named checks pass: the relay down on purpose does not hold a restart', () => {
    expect(meetsReadiness(503, answer('ok', 'ok', 'failed'), ['postgres'])).toBe(true);
    expect(meetsReadiness(503, answer('failed', 'ok', 'failed'), ['postgres'])).toBe(false);
    expect(meetsReadiness(503, null, ['postgres'])).toBe(false);
    expect(meetsReadiness(500, answer('ok', 'ok', 'ok'), ['postgres'])).toBe(false);
  });
});
