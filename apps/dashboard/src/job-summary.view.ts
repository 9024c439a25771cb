import type { DashboardConfigView, JobStageView, JobView } from '@longhaul/contracts';
import { el } from './dom.builder.js';
import { formatDuration } from './display.format.js';
import { fact, progressBar, statusBadge, timeOf } from './widgets.view.js';

/** The stage in words: `running · transcode · fast lane · attempt 2 · worker w-1`. */
export function describeStage(stage: JobStageView): string {
  const parts: string[] = [stage.state.replace(/_/g, ' ')];
  if (stage.step) parts.push(stage.step);
  if (stage.lane) parts.push(`${stage.lane} lane`);
  if (stage.attempt !== undefined) parts.push(`attempt ${stage.attempt}`);
  if (stage.worker) parts.push(`worker ${stage.worker}`);
  if (stage.waitingMs !== undefined) parts.push(`waiting ${formatDuration(stage.waitingMs)}`);
  if (stage.retryAt) parts.push(`retry at ${stage.retryAt}`);
  if (stage.fingerprint) parts.push(`fingerprint ${stage.fingerprint}`);
  return parts.join(' · ');
}

/** The Jaeger UI's page of a trace, or null without a trace or a Jaeger address. */
export function traceUrl(config: DashboardConfigView | null, traceId: string | null): string | null {
  if (!config || !traceId || !/^[0-9a-f]{32}$/i.test(traceId)) return null;
  return `${config.jaegerUrl}/trace/${traceId}`;
}

/** A trace id linking to its page in Jaeger; the id alone, or "no trace", when there is no page to open. */
export function traceLink(config: DashboardConfigView | null, traceId: string | null): HTMLElement {
  const trace = traceUrl(config, traceId);
  return trace
    ? el('a', { testId: 'trace-link', className: 'mono', attrs: { href: trace, target: '_blank', rel: 'noopener noreferrer' } }, traceId!, ' (Jaeger)')
    : el('span', { testId: 'trace-none', className: 'mono' }, traceId ?? 'no trace');
}

/** The job's status, stage, lane, times, trace and error. */
export function jobSummaryView(job: JobView, config: DashboardConfigView | null): HTMLElement {
  const showsProgress = job.stage.state === 'running';
  return el(
    'dl',
    { className: 'facts summary' },
    fact('Status', statusBadge(job.status, 'job-status')),
    fact(
      'Stage',
      el('span', { testId: 'job-stage', data: { state: job.stage.state } }, describeStage(job.stage)),
      showsProgress ? el('span', { testId: 'stage-progress' }, ' ', progressBar(job.stage.progress ?? null, `progress of ${job.stage.step ?? 'the job'}`)) : null,
      ' since ',
      timeOf(job.stage.since),
    ),
    fact('Type', el('span', { testId: 'job-type' }, job.type)),
    fact('Lane', job.lane),
    fact('Submitted', timeOf(job.createdAt, 'job-created')),
    fact('Started', timeOf(job.startedAt, 'job-started')),
    fact('Finished', timeOf(job.finishedAt, 'job-finished')),
    fact('Trace', traceLink(config, job.traceId)),
    job.media ? fact('Source', `${job.media.width}×${job.media.height} ${job.media.videoCodec}, ${job.media.durationSeconds.toFixed(1)} s`) : null,
    job.metadata && Object.keys(job.metadata).length > 0
      ? fact('Metadata', el('span', { className: 'mono' }, Object.entries(job.metadata).map(([key, value]) => `${key}=${value}`).join(' ')))
      : null,
    job.error ? fact('Error', el('span', { className: 'error-text', testId: 'job-error' }, `${job.error.code}: ${job.error.message}`)) : null,
  );
}
