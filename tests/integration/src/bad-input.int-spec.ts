import { testEnv } from './test-env';

const env = testEnv();

afterAll(() => env.db.close());

async function counts() {
  const [row] = await env.db.rows<{ jobs: string; outbox: string }>(
    `SELECT (SELECT count(*) FROM api.jobs) AS jobs, (SELECT count(*) FROM api.outbox) AS outbox`,
  );
  return row;
}

describe('bad input gets a clear problem+json answer and writes nothing', () => {
  const cases: Array<[string, { method: string; path: string; body?: string; headers?: Record<string, string> }, number, string]> = [
    ['a body that is not JSON', { method: 'POST', path: '/v1/jobs', body: '{"type": ', headers: { 'content-type': 'application/json' } }, 400, 'malformed_json'],
    ['a wrong content type', { method: 'POST', path: '/v1/jobs', body: 'type=video.process', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 415, 'unsupported_media_type'],
    ['no body at all', { method: 'POST', path: '/v1/jobs' }, 400, 'validation_failed'],
    ['an oversized body', { method: 'POST', path: '/v1/jobs', body: JSON.stringify({ type: 'video.process', pad: 'x'.repeat(70_000) }), headers: { 'content-type': 'application/json' } }, 413, 'payload_too_large'],
    ['a malformed job id', { method: 'GET', path: '/v1/jobs/not-a-uuid' }, 400, 'malformed_id'],
    ['an unknown job id', { method: 'GET', path: '/v1/jobs/01a227f1-7422-7ab7-a316-b5403d4a3560' }, 404, 'not_found'],
    ['an unknown route', { method: 'GET', path: '/v1/nothing-here' }, 404, 'not_found'],
    ['a method the path does not take', { method: 'DELETE', path: '/v1/jobs' }, 405, 'method_not_allowed'],
    // A method Fastify reads a body for, with none: the route, not the body, decides the answer.
    ['a method nothing takes, with no Content-Type', { method: 'QUERY', path: '/v1/jobs' }, 405, 'method_not_allowed'],
    ['a body of an unknown type to an unknown route', { method: 'POST', path: '/v1/nothing-here', body: '<job/>', headers: { 'content-type': 'application/xml' } }, 404, 'not_found'],
    ['an Idempotency-Key over 255 characters', { method: 'POST', path: '/v1/jobs', body: JSON.stringify({ type: 'video.process', source: { url: 'https://a.example/v.mp4' } }), headers: { 'content-type': 'application/json', 'idempotency-key': 'k'.repeat(256) } }, 400, 'idempotency_key_invalid'],
  ];

  it.each(cases)('%s', async (_name, request, status, code) => {
    const before = await counts();
    const response = await env.api.request(request.method, request.path, { body: request.body, headers: request.headers });
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ status, code, type: expect.any(String), title: expect.any(String) });
    expect(await counts()).toEqual(before);
  });

  it('names the methods a path takes when the method is wrong', async () => {
    const response = await env.api.request('PUT', '/v1/jobs/01a227f1-7422-7ab7-a316-b5403d4a3560');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(response.body).toMatchObject({ code: 'method_not_allowed', title: 'Method Not Allowed' });
  });

  it('gives one problem type one title, wherever it was raised', async () => {
    const route = await env.api.request('GET', '/v1/nothing-here');
    const job = await env.api.request('GET', '/v1/jobs/01a227f1-7422-7ab7-a316-b5403d4a3560');
    expect([route.body, job.body]).toEqual([
      expect.objectContaining({ code: 'not_found', title: 'Not Found' }),
      expect.objectContaining({ code: 'not_found', title: 'Not Found' }),
    ]);
  });

  it('names every invalid field of a body that fails validation', async () => {
    const before = await counts();
    const response = await env.api.submitJob({
      type: 'video.transmogrify',
      source: { url: 'ftp://files.example/v.mp4' },
      outputs: { renditions: ['8k'], thumbnails: { count: 0 } },
      color: 'blue',
    });
    expect(response.status).toBe(400);
    const fields = (response.body as unknown as { errors: Array<{ field: string }> }).errors.map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['type', 'source.url', 'outputs.renditions.0', 'outputs.thumbnails.count', '(body)']));
    expect(await counts()).toEqual(before);
  });
});
