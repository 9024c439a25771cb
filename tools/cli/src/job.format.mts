/**
 * A job for people: `status` shows all of it, `submit` the id and, once waited for, the result
 * and its download links. Download URLs the api gives as paths are printed absolute, against
 * the api base URL, so they can be pasted into a browser or `curl` as they are.
 */
import type { ApiClient } from './api.client.mts';
import type { DownloadView, JobStageView, JobView, MediaView, UploadView } from './api.types.mts';
import { clockTime } from './step-progress.board.mts';
import { renderTable } from './table.format.mts';
import { elapsedMs, formatBytes, formatDuration, formatPercent } from './units.format.mts';

/** The job with every download URL absolute: what `--json` prints. */
export function withAbsoluteDownloads<T extends { downloads?: DownloadView[] }>(job: T, client: ApiClient): T {
  if (!job.downloads) return job;
  return { ...job, downloads: job.downloads.map((download) => ({ ...download, url: client.resolve(download.url) })) };
}

/** `status ID`. */
export function formatJob(job: JobView, client: ApiClient): string {
  const rows: [string, string | undefined][] = [
    ['job', job.id],
    ['type', job.type],
    ['status', job.status],
    ['stage', job.stage ? describeStage(job.stage) : undefined],
    ['media', job.media ? describeMedia(job.media) : undefined],
    ['created', job.createdAt],
    ['updated', job.updatedAt],
    ['took', tookText(job)],
    ['trace', job.traceId ?? undefined],
    ['error', job.error ? `${job.error.code}: ${job.error.message}` : undefined],
  ];
  let text = rows
    .filter((row): row is [string, string] => row[1] !== undefined && row[1] !== '')
    .map(([label, value]) => `${label.padEnd(8)}  ${value}\n`)
    .join('');
  const steps = job.steps ?? [];
  if (steps.length > 0) {
    text += `\nsteps\n${indent(
      renderTable(
        ['STEP', 'STATUS', 'PROGRESS', 'ATTEMPT', 'LANE', 'WORKER', 'NOTE'],
        steps.map((step) => [
          step.name,
          step.status,
          step.status === 'succeeded' ? '100%' : typeof step.progress === 'number' ? formatPercent(step.progress) : '-',
          step.maxAttempts ? `${step.attempt}/${step.maxAttempts}` : String(step.attempt),
          step.lane ?? '-',
          step.worker ?? '-',
          step.retryAt ? `retry at ${clockTime(step.retryAt)}` : step.error ? `${step.error.code}: ${step.error.message}` : '',
        ]),
      ),
    )}`;
    const attempts = steps.flatMap((step) => (step.attempts ?? []).map((attempt) => ({ step: step.name, ...attempt })));
    if (attempts.length > 0) {
      text += `\nattempts\n${indent(
        renderTable(
          ['STEP', 'ATTEMPT', 'LANE', 'STATUS', 'WORKER', 'STARTED', 'FINISHED', 'ERROR'],
          attempts.map((attempt) => [
            attempt.step,
            String(attempt.attempt),
            attempt.lane ?? '-',
            attempt.status,
            attempt.worker ?? '-',
            attempt.startedAt ?? '-',
            attempt.finishedAt ?? '-',
            attempt.error ? `${attempt.error.code}: ${attempt.error.message}` : '',
          ]),
        ),
      )}`;
    }
  }
  const downloads = job.downloads ?? [];
  if (downloads.length > 0) text += `\n${formatDownloads(downloads, client)}`;
  return text;
}

/** `submit`: the upload and the accepted job, one line each. */
export function formatSubmitted(job: JobView, upload: UploadView | undefined): string {
  let text = '';
  if (upload) {
    const parts = [upload.id, upload.filename, formatBytes(upload.sizeBytes), upload.media ? describeMedia(upload.media) : undefined];
    text += `upload  ${parts.filter(Boolean).join('  ')}\n`;
  }
  text += `job     ${job.id}  ${job.status}${job.lane ? ` (${job.lane} lane)` : ''}\n`;
  if (job.traceId) text += `trace   ${job.traceId}\n`;
  const notify = [job.notify?.webhookUrl ? `webhook ${job.notify.webhookUrl}` : '', job.notify?.email ? `email ${job.notify.email}` : ''].filter(Boolean);
  if (notify.length > 0) text += `notify  ${notify.join(', ')}\n`;
  // The api shows the signing secret in this one answer only, so it must not be lost here.
  if (job.notify?.webhookSecret) text += `secret  ${job.notify.webhookSecret}  (signs the webhook requests; shown only now)\n`;
  return text;
}

/** After `--wait`: how the job ended and what it produced. */
export function formatOutcome(job: JobView, client: ApiClient): string {
  const took = tookText(job);
  let text = `job ${job.id} ${job.status}${took ? ` in ${took}` : ''}\n`;
  if (job.error) text += `error   ${job.error.code}: ${job.error.message}\n`;
  if (job.stage?.deadLetterId) text += `dead letter ${job.stage.deadLetterId}: longhaul dead-letters replay ${job.stage.deadLetterId}\n`;
  const downloads = job.downloads ?? [];
  if (downloads.length > 0) text += formatDownloads(downloads, client);
  return text;
}

export function formatDownloads(downloads: readonly DownloadView[], client: ApiClient): string {
  const labels = downloads.map((download) => (download.rendition ? `${download.kind} ${download.rendition}` : download.kind));
  const width = Math.max(...labels.map((label) => label.length));
  const lines = downloads.map((download, index) => {
    const expires = download.expiresAt ? `  (until ${download.expiresAt})` : '';
    return `  ${(labels[index] ?? '').padEnd(width)}  ${client.resolve(download.url)}${expires}\n`;
  });
  return `downloads\n${lines.join('')}`;
}

/** `running transcode, attempt 1, fast lane, 42%` */
export function describeStage(stage: JobStageView): string {
  const parts = [stage.state.replaceAll('_', ' ') + (stage.step ? ` ${stage.step}` : '')];
  if (stage.attempt) parts.push(`attempt ${stage.attempt}`);
  if (stage.lane) parts.push(`${stage.lane} lane`);
  if (typeof stage.progress === 'number') parts.push(formatPercent(stage.progress));
  if (stage.retryAt) parts.push(`retry at ${clockTime(stage.retryAt)}`);
  if (stage.deadLetterId) parts.push(`dead letter ${stage.deadLetterId}`);
  return parts.join(', ');
}

/** `1280x720 h264/aac 8.0s` */
export function describeMedia(media: MediaView): string {
  const size = media.width && media.height ? `${media.width}x${media.height}` : undefined;
  const codecs = media.videoCodec ? [media.videoCodec, media.audioCodec].filter(Boolean).join('/') : undefined;
  const duration = typeof media.durationSeconds === 'number' ? `${media.durationSeconds.toFixed(1)}s` : undefined;
  return [size, codecs, duration].filter(Boolean).join(' ');
}

function tookText(job: JobView): string | undefined {
  const ms = elapsedMs(job.startedAt ?? job.createdAt, job.finishedAt);
  return ms === undefined ? undefined : formatDuration(ms);
}

function indent(text: string): string {
  return text.replace(/^(?=.)/gm, '  ');
}
