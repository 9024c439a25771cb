import { TERMINAL_JOB_STATUSES, type JobStatus } from '@longhaul/contracts';
import { sleep } from '@longhaul/testing';
import type { RunTimeline } from '../run.timeline';
import type { FaultRunRepository } from './fault-run.repository';

const POLL_MS = 2_000;
const PROGRESS_EVERY_MS = 30_000;

/**
 * Waits until every given job is finished (completed, failed or cancelled) or `timeoutMs`
 * passes, reading `api.jobs` directly. It never fails: jobs still open at the end are for the
 * checks to report. Returns whether everything finished.
 */
export async function drainJobs(repository: FaultRunRepository, jobIds: readonly string[], timeoutMs: number, timeline: RunTimeline): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let lastProgress = 0;
  for (;;) {
    const counts = await repository.statusCounts(jobIds).catch(() => null);
    if (counts) {
      const open = jobIds.length - Object.entries(counts).reduce((sum, [status, n]) => sum + (TERMINAL_JOB_STATUSES.includes(status as JobStatus) ? n : 0), 0);
      if (open === 0) {
        timeline.log(`drained: ${JSON.stringify(counts)}`);
        return true;
      }
      if (Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
        timeline.log(`draining: ${open} of ${jobIds.length} open ${JSON.stringify(counts)}`);
        lastProgress = Date.now();
      }
    }
    if (Date.now() > deadline) {
      timeline.log(`drain gave up after ${timeoutMs / 1000} s`);
      return false;
    }
    await sleep(POLL_MS);
  }
}
