import type { JobLifecycleV1 } from '@longhaul/contracts';

/** One rendered email: subject, plain text and HTML. */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const HEADLINE: Record<string, string> = {
  completed: 'has completed',
  failed: 'has failed',
  cancelled: 'was cancelled',
};

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * The email about a job's end, per event: what happened, the error for a failed job, and a link
 * to the job on the api (`publicApiUrl`). Every value from the job is escaped in the HTML part.
 */
export function renderJobEmail(event: JobLifecycleV1, publicApiUrl: string): RenderedEmail {
  const headline = HEADLINE[event.status];
  if (!headline) throw new Error(`job status ${event.status} sends no email`);
  const link = `${publicApiUrl.replace(/\/$/, '')}/v1/jobs/${event.jobId}`;
  const subject = `Longhaul: job ${event.jobId} ${headline}`;
  const facts: Array<[string, string]> = [
    ['Job', event.jobId],
    ['Type', event.jobType],
    ['Status', event.status],
    ['At', event.occurredAt],
  ];
  if (event.error) facts.push(['Error', `${event.error.code}: ${event.error.message}`]);
  const text = [
    `Your ${event.jobType} job ${headline}.`,
    '',
    ...facts.map(([name, value]) => `${name}: ${value}`),
    '',
    `Details and downloads: ${link}`,
    '',
    '— Longhaul',
  ].join('\n');
  const rows = facts.map(([name, value]) => `<tr><th align="left">${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`).join('');
  const html =
    `<!doctype html><html><body>` +
    `<p>Your ${escapeHtml(event.jobType)} job ${escapeHtml(headline)}.</p>` +
    `<table>${rows}</table>` +
    `<p><a href="${escapeHtml(link)}">Details and downloads</a></p>` +
    `<p>— Longhaul</p></body></html>`;
  return { subject, text, html };
}
