import { z } from 'zod';
import { ProblemError } from '@longhaul/platform';
import { nulCharacterFields, parseBody, parseQuery } from './request.validation';

const Query = z.strictObject({ jobType: z.string().max(100).optional() });
const Body = z.strictObject({ type: z.string(), metadata: z.record(z.string(), z.string()).optional() });

function problemOf(run: () => unknown): ProblemError {
  try {
    run();
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
  throw new Error('expected a problem');
}

describe('request validation', () => {
  it('finds U+0000 in strings, array items and object keys, by path', () => {
    expect(nulCharacterFields({ a: 'ok', b: ['x', 'y\u0000'], c: { 'k\u0000': 'v', d: 'z\u0000' } })).toEqual(['b.1', 'c.k\u0000', 'c.d']);
    expect(nulCharacterFields({ a: 1, b: null, c: ['fine'] })).toEqual([]);
  });

  it('refuses a query parameter holding U+0000 with a 400 naming it, before the schema (which would pass it)', () => {
    const problem = problemOf(() => parseQuery(Query, { jobType: ')\u0000!' }));
    expect(problem.problem).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'jobType', message: expect.stringContaining('U+0000') }] });
  });

  it('refuses a body holding U+0000 anywhere, naming the field', () => {
    const problem = problemOf(() => parseBody(Body, { type: 'video.process', metadata: { note: 'a\u0000b' } }));
    expect(problem.problem).toMatchObject({ status: 400, errors: [{ field: 'metadata.note' }] });
  });

  it('passes clean input through the schema', () => {
    expect(parseQuery(Query, { jobType: 'video.process' })).toEqual({ jobType: 'video.process' });
    expect(parseBody(Body, { type: 'x' })).toEqual({ type: 'x' });
  });
});
