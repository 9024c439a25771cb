import { bodyVerdict, byteCount, isJsonContentType } from './json-body.parser';
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

describe('bodyVerdict', () => {
  const skipped = new Set(['/v1/uploads']);
  const verdict = (url: string, contentType: string | undefined, method = 'POST', skip: ReadonlySet<string> = skipped) =>
    bodyVerdict({ method, url, headers: contentType === undefined ? {} : { 'content-type': contentType } }, skip);

  it.each(['/v1/uploads', '/v1/uploads/', '/V1/Uploads', '/v1/uploads?name=a'])('leaves %s unread', (url) => {
    expect(verdict(url, 'video/mp4')).toBe('unread');
  });

  it.each(['/v1/jobs', '/v1/uploads/extra', '/v1/uploadsx'])('still refuses a non-JSON body on %s', (url) => {
    const refused = verdict(url, 'video/mp4');
    expect(refused).toBeInstanceOf(ProblemError);
    expect((refused as ProblemError).problem).toMatchObject({ status: 415, code: 'unsupported_media_type' });
  });

  it('refuses a body with no Content-Type, naming it', () => {
    expect((verdict('/v1/jobs', undefined) as ProblemError).problem.detail).toBe('expected application/json, got no Content-Type');
  });

  it('reads JSON on the body methods only', () => {
    expect(verdict('/v1/jobs', 'application/json')).toBe('json');
    expect(verdict('/v1/jobs', 'application/merge-patch+json', 'PATCH')).toBe('json');
    expect(verdict('/v1/jobs/1', 'text/plain', 'DELETE')).toBe('unread');
  });

  it('skips nothing without the option', () => {
    expect(verdict('/v1/uploads', 'video/mp4', 'POST', new Set())).toBeInstanceOf(ProblemError);
  });
});

describe('byteCount', () => {
  it.each([
    ['512b', 512],
    ['64kb', 65_536],
    ['1mb', 1_048_576],
  ])('%s → %d bytes', (limit, expected) => {
    expect(byteCount(limit)).toBe(expected);
  });

  it('refuses anything else', () => {
    expect(() => byteCount('1gb')).toThrow('not a size: 1gb');
  });
});
