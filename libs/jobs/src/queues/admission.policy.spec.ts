import { decideAdmission, decideTenantAdmission, retryAfterFor } from './admission.policy';

const limits = { maxDepth: 100, maxLag: 1_000 };
const lane = (depth: number, lag: number | null, throughputPerSecond = 0) => ({ depth, lag, throughputPerSecond });

describe('admission policy', () => {
  it('admits when there is no sample yet', () => {
    expect(decideAdmission(null, limits)).toEqual({ admit: true });
    expect(decideAdmission(undefined, limits)).toEqual({ admit: true });
  });

  it('admits while every figure is under its limit', () => {
    expect(decideAdmission(lane(99, 999), limits)).toEqual({ admit: true });
    expect(decideAdmission(lane(0, 0), limits)).toEqual({ admit: true });
  });

  it('refuses once the depth reaches its limit', () => {
    expect(decideAdmission(lane(100, 0, 5), limits)).toEqual({
      admit: false,
      scope: 'lane',
      breaches: [{ limit: 'depth', figure: 100, max: 100 }],
      retryAfterSeconds: 1,
    });
  });

  it('refuses once the lag reaches its limit', () => {
    expect(decideAdmission(lane(0, 1_200, 10), limits)).toEqual({
      admit: false,
      scope: 'lane',
      breaches: [{ limit: 'lag', figure: 1_200, max: 1_000 }],
      retryAfterSeconds: 21, // 201 to drain at 10/s
    });
  });

  it('judges by depth alone when the lag is unknown', () => {
    expect(decideAdmission(lane(10, null), limits)).toEqual({ admit: true });
    expect(decideAdmission(lane(150, null, 10), limits)).toMatchObject({ admit: false, breaches: [{ limit: 'depth' }], retryAfterSeconds: 6 });
  });

  it('names every limit passed and waits for the slowest to drain', () => {
    const decision = decideAdmission(lane(130, 1_500, 20), limits);
    expect(decision).toEqual({
      admit: false,
      scope: 'lane',
      breaches: [
        { limit: 'depth', figure: 130, max: 100 },
        { limit: 'lag', figure: 1_500, max: 1_000 },
      ],
      retryAfterSeconds: 26, // lag: 501 at 20/s; depth would be 31 at 20/s → 2
    });
  });

  describe('per tenant', () => {
    const A = 'tenant-a';
    const B = 'tenant-b';
    const tenantLimits = { maxDepthPerTenant: 5 };
    // 8 open steps in the lane (6 queued, 2 running): A holds 6, B 2; 4 finish a second.
    const sample = { depth: 6, running: 2, throughputPerSecond: 4, tenantDepths: new Map([[A, 6], [B, 2]]) };

    it('refuses a tenant that has reached its limit while another in the same lane is admitted', () => {
      expect(decideTenantAdmission(A, sample, tenantLimits)).toEqual({
        admit: false,
        scope: 'tenant',
        breaches: [{ limit: 'depth', figure: 6, max: 5 }],
        retryAfterSeconds: 1, // 2 to drain at A's share of the throughput, 6/8 × 4 = 3/s
      });
      expect(decideTenantAdmission(B, sample, tenantLimits)).toEqual({ admit: true });
    });

    it('refuses once the depth REACHES the limit, as for the lane', () => {
      expect(decideTenantAdmission(A, sample, { maxDepthPerTenant: 7 })).toEqual({ admit: true });
      expect(decideTenantAdmission(A, sample, { maxDepthPerTenant: 6 })).toMatchObject({ admit: false, scope: 'tenant' });
    });

    it('waits for the tenant\'s share of the lane\'s throughput to drain its excess', () => {
      const busy = { depth: 100, running: 0, throughputPerSecond: 10, tenantDepths: new Map([[A, 50]]) };
      // excess 50 − 20 + 1 = 31 at half of 10/s → 7 s
      expect(decideTenantAdmission(A, busy, { maxDepthPerTenant: 20 })).toMatchObject({ admit: false, retryAfterSeconds: 7 });
    });

    it('admits a tenant never sampled (depth 0), and everyone before the first sample', () => {
      expect(decideTenantAdmission('new-tenant', sample, tenantLimits)).toEqual({ admit: true });
      expect(decideTenantAdmission(A, null, tenantLimits)).toEqual({ admit: true });
    });
  });

  describe('Retry-After', () => {
    it('is the excess over the throughput, rounded up', () => {
      expect(retryAfterFor(10, 4)).toBe(3);
      expect(retryAfterFor(8, 4)).toBe(2);
    });

    it('assumes at least one item per second drains', () => {
      expect(retryAfterFor(7, 0)).toBe(7);
      expect(retryAfterFor(7, 0.2)).toBe(7);
      expect(retryAfterFor(7, Number.NaN)).toBe(7);
    });

    it('is clamped to 1..60 s', () => {
      expect(retryAfterFor(1, 1_000)).toBe(1);
      expect(retryAfterFor(0, 1)).toBe(1);
      expect(retryAfterFor(100_000, 1)).toBe(60);
    });
  });
});
