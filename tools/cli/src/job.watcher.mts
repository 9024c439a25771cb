/**
 * `submit --wait`: follows `GET /v1/jobs/{id}/events` and draws a bar per step until the job
 * reaches a terminal `job.status`, then reads the job once more for its final view (result,
 * downloads), again for up to a second while that view does not show the end yet. Between
 * reconnects it asks `GET /v1/jobs/{id}` whether the job already ended, so a terminal event
 * lost with a dropped connection cannot leave the CLI waiting.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { JobStatusEvent, JobView, StepProgressEvent, StepStatusEvent } from './api.types.mts';
import { TERMINAL_JOB_STATUSES } from './api.types.mts';
import type { CommandContext } from './command.types.mts';
import { followEventStream } from './event-stream.follower.mts';
import type { ProgressDisplay } from './progress.display.mts';
import type { ReconnectPolicy } from './reconnect.policy.mts';
import type { SseEvent } from './sse.parser.mts';
import { StepBoard, stepBar } from './step-progress.board.mts';
import { formatDuration } from './units.format.mts';

export function jobPath(jobId: string): string {
  return `/v1/jobs/${encodeURIComponent(jobId)}`;
}

export async function watchJob(context: CommandContext, job: JobView, display: ProgressDisplay, policy?: Partial<ReconnectPolicy>): Promise<JobView> {
  const board = new StepBoard(job.steps);
  for (const line of board.lines()) display.set(line.name, stepBar(line));
  if (!TERMINAL_JOB_STATUSES.includes(job.status)) {
    await followEventStream({
      url: context.client.resolve(`${jobPath(job.id)}/events`),
      headers: context.client.authHeaders(),
      signal: context.io.signal,
      policy,
      onEvent: (event) => applyEvent(event, job.id, board, display),
      onReconnect: (notice) =>
        display.log(`event stream: ${notice.reason}; reconnecting in ${formatDuration(notice.delayMs)}${notice.lastEventId ? ` after event ${notice.lastEventId}` : ''}`),
      beforeReconnect: async () => TERMINAL_JOB_STATUSES.includes((await context.client.get<JobView>(jobPath(job.id))).body.status),
    });
  }
  display.close();
  return finalView(context, job.id);
}

/** The final read may reach a replica a moment behind the event that announced the end. */
const FINAL_READ_TRIES = 5;
const FINAL_READ_INTERVAL_MS = 200;

async function finalView(context: CommandContext, jobId: string): Promise<JobView> {
  for (let attempt = 1; ; attempt++) {
    const view = (await context.client.get<JobView>(jobPath(jobId))).body;
    if (TERMINAL_JOB_STATUSES.includes(view.status) || attempt >= FINAL_READ_TRIES) return view;
    await sleep(FINAL_READ_INTERVAL_MS, undefined, { signal: context.io.signal });
  }
}

/** Updates the bars for one event; true when the job reached a terminal status. */
export function applyEvent(event: SseEvent, jobId: string, board: StepBoard, display: ProgressDisplay): boolean {
  const data = parseData(event.data);
  if (!data || (typeof data['jobId'] === 'string' && data['jobId'] !== jobId)) return false;
  switch (event.type) {
    case 'step.status': {
      if (typeof data['step'] !== 'string' || typeof data['to'] !== 'string') return false;
      const line = board.applyStatus(data as unknown as StepStatusEvent);
      display.set(line.name, stepBar(line));
      return false;
    }
    case 'step.progress': {
      if (typeof data['step'] !== 'string' || typeof data['progress'] !== 'number') return false;
      const line = board.applyProgress(data as unknown as StepProgressEvent);
      if (line) display.set(line.name, stepBar(line));
      return false;
    }
    case 'job.status': {
      const status = data as unknown as JobStatusEvent;
      if (typeof status.status !== 'string') return false;
      display.log(`job ${status.status}${status.error ? `: ${status.error.code}: ${status.error.message}` : ''}`);
      return TERMINAL_JOB_STATUSES.includes(status.status);
    }
    default:
      // Kinds this CLI does not know yet are skipped, so a newer api does not break it.
      return false;
  }
}

function parseData(data: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(data);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
