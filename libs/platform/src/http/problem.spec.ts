import { ProblemError, problemTitle, problemType } from './problem';

describe('problem titles', () => {
  it('are the code in title case', () => {
    expect(problemTitle('not_found')).toBe('Not Found');
    expect(problemTitle('source_address_forbidden')).toBe('Source Address Forbidden');
    expect(problemTitle('method_not_allowed')).toBe('Method Not Allowed');
  });

  it('use the HTTP reason phrase or the right spelling where the words alone would not', () => {
    expect(problemTitle('overloaded')).toBe('Too Many Requests');
    expect(problemTitle('rate_limited')).toBe('Too Many Requests');
    expect(problemTitle('malformed_json')).toBe('Malformed JSON');
    expect(problemTitle('idempotency_key_invalid')).toBe('Invalid Idempotency-Key');
    expect(problemTitle('internal_error')).toBe('Internal Server Error');
  });

  it('are what ProblemError.of answers with, beside the type and the extensions', () => {
    expect(ProblemError.of(422, 'media_empty', 'the upload is 0 bytes', { uploadId: 'u1' }).problem).toEqual({
      type: problemType('media_empty'),
      title: 'Media Empty',
      status: 422,
      code: 'media_empty',
      detail: 'the upload is 0 bytes',
      uploadId: 'u1',
    });
  });
});
