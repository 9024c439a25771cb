import type { z } from 'zod';
import type { ReadinessReport } from './readiness.check';
import { ReadinessReportSchema } from './readiness-report.schema';

// Compile-time: the schema's type and the interface are assignable both ways.
type Parsed = z.infer<typeof ReadinessReportSchema>;
const bothWays = [(p: Parsed): ReadinessReport => p, (v: ReadinessReport): Parsed => v];

describe('ReadinessReportSchema', () => {
  it('is the ReadinessReport interface, both ways (checked by the compiler)', () => {
    expect(bothWays).toHaveLength(2);
    const report: ReadinessReport = {
      status: 'not_ready',
      checks: { postgres: { status: 'ok', durationMs: 3, checkedAt: '2025-11-30T12:34:56.789Z' }, kafka: { status: 'failed', error: 'timeout', durationMs: 2000, checkedAt: '2025-11-30T12:34:56.789Z' } },
    };
    expect(ReadinessReportSchema.parse(report)).toEqual(report);
  });
});
