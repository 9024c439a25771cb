import type { z } from 'zod';
import { problemType, type ProblemDetails } from './problem';
import { ProblemSchema } from './problem.schema';

// Compile-time: the schema's type and the interface are assignable both ways.
type Parsed = z.infer<typeof ProblemSchema>;
const bothWays = [(p: Parsed): ProblemDetails => p, (v: ProblemDetails): Parsed => v];

describe('ProblemSchema', () => {
  it('is the ProblemDetails interface, both ways (checked by the compiler)', () => {
    expect(bothWays).toHaveLength(2);
  });

  it('accepts a validation problem with extension members and refuses a success status', () => {
    const problem = {
      type: problemType('validation_failed'), title: 'Validation Failed', status: 400, code: 'validation_failed', instance: '/v1/jobs',
      errors: [{ field: 'source.url', message: 'must be an http or https URL' }], requestId: 'r-1',
    };
    expect(ProblemSchema.safeParse(problem).success).toBe(true);
    expect(ProblemSchema.safeParse({ ...problem, status: 200 }).success).toBe(false);
  });
});
