import type { z } from 'zod';
import type { SerializedError } from './longhaul.error';
import { SerializedErrorSchema } from './serialized-error.schema';

// Compile-time: the schema's type and the interface are assignable both ways.
type Parsed = z.infer<typeof SerializedErrorSchema>;
const bothWays = [(p: Parsed): SerializedError => p, (v: SerializedError): Parsed => v];

describe('SerializedErrorSchema', () => {
  it('is the SerializedError interface, both ways (checked by the compiler)', () => {
    expect(bothWays).toHaveLength(2);
    expect(SerializedErrorSchema.safeParse({ code: 'step_failed', message: 'x', retryable: 'yes' }).success).toBe(false);
  });
});
