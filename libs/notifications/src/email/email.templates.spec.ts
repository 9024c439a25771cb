import type { JobLifecycleV1 } from '@longhaul/contracts';
import { renderJobEmail } from './email.templates';
import { classifySmtpError } from './smtp-error.policy';

const base: JobLifecycleV1 = {
  jobId: '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d', jobType: 'video.process', status: 'completed', version: 7, previousVersion: 2, result: {}, error: null,
  occurredAt: '2026-11-29T12:00:00.000Z', notify: null,
};

describe('renderJobEmail', () => {
  it('says what happened, in text and HTML, with a link to the job', () => {
    const mail = renderJobEmail(base, 'http://127.0.0.1:3000/');
    expect(mail.subject).toBe('Longhaul: job 0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d has completed');
    expect(mail.text).toContain('Details and downloads: http://127.0.0.1:3000/v1/jobs/0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d');
    expect(mail.html).toContain('href="http://127.0.0.1:3000/v1/jobs/0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d"');
  });

  it('shows a failed job its error, escaped in the HTML part', () => {
    const mail = renderJobEmail({ ...base, status: 'failed', error: { code: 'media_invalid', message: '<script>x</script>', retryable: false } }, 'http://api');
    expect(mail.subject).toContain('has failed');
    expect(mail.text).toContain('Error: media_invalid: <script>x</script>');
    expect(mail.html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(mail.html).not.toContain('<script>');
  });

  it('has no template for a job that has not ended', () => {
    expect(() => renderJobEmail({ ...base, status: 'running' }, 'http://api')).toThrow();
  });
});

describe('classifySmtpError', () => {
  it('gives up on 5xx replies and retries 4xx replies and connection errors', () => {
    expect(classifySmtpError(Object.assign(new Error('no such user'), { responseCode: 550 })).outcome).toBe('permanent');
    expect(classifySmtpError(Object.assign(new Error('try later'), { responseCode: 451 })).outcome).toBe('retryable');
    expect(classifySmtpError(Object.assign(new Error('refused'), { code: 'ECONNECTION' }))).toMatchObject({ outcome: 'retryable', statusCode: null });
  });
});
