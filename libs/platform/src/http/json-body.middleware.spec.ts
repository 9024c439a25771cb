import type { Request, Response } from 'express';
import { isJsonContentType, jsonBody } from './json-body.middleware';
import { ProblemError } from './problem';

describe('isJsonContentType', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['application/merge-patch+json', true],
    ['text/plain', false],
    ['application/x-www-form-urlencoded', false],
    [undefined, false],
  ])('%s → %s', (header, expected) => {
    expect(isJsonContentType(header)).toBe(expected);
  });
});

describe('jsonBody skipPaths', () => {
  const [middleware] = jsonBody('64kb', { skipPaths: ['/v1/uploads'] });
  const run = (path: string, contentType: string, method = 'POST') => {
    const req = { method, path, headers: { 'content-type': contentType, 'content-length': '10' } } as unknown as Request;
    const next = jest.fn();
    middleware!(req, {} as Response, next);
    return next;
  };

  it.each(['/v1/uploads', '/v1/uploads/', '/V1/Uploads'])('lets %s through unread', (path) => {
    const next = run(path, 'video/mp4');
    expect(next).toHaveBeenCalledWith();
  });

  it.each(['/v1/jobs', '/v1/uploads/extra', '/v1/uploadsx'])('still refuses a non-JSON body on %s', (path) => {
    const next = run(path, 'video/mp4');
    expect(next).toHaveBeenCalledWith(expect.any(ProblemError));
    expect((next.mock.calls[0]![0] as ProblemError).problem).toMatchObject({ status: 415, code: 'unsupported_media_type' });
  });

  it('skips nothing without the option', () => {
    const [strict] = jsonBody('64kb');
    const next = jest.fn();
    strict!({ method: 'POST', path: '/v1/uploads', headers: { 'content-type': 'video/mp4', 'content-length': '10' } } as unknown as Request, {} as Response, next);
    expect(next).toHaveBeenCalledWith(expect.any(ProblemError));
  });
});
