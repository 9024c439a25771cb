import { sleep, type ProbeOutcome } from '@longhaul/testing';
import { probeJobRequest } from '../load/job-request.factory';
import type { JobSubmitter } from '../load/job.submitter';

/** What one probe found. */
export interface ProbeResult {
  outcome: ProbeOutcome;
  jobId: string | null;
  /** Epoch ms the probe job was seen `completed`; null otherwise. */
  completedAt: number | null;
}

const POLL_MS = 250;
const REQUEST_TIMEOUT_MS = 5_000;

/**
 * Measures recovery: submits a job told to succeed and polls it until it completes. The time
 * from a fault clearing to its probe completing is that fault's time to recover.
 */
export class RecoveryProbe {
  private count = 0;

  constructor(
    private readonly submitter: JobSubmitter,
    private readonly apiUrl: string,
    private readonly timeoutMs: number,
    /** Sent as `Authorization: Bearer` with every status read. */
    private readonly apiKey: string,
  ) {}

  async measure(): Promise<ProbeResult> {
    const deadline = Date.now() + this.timeoutMs;
    const record = await this.submitter.submit(probeJobRequest(this.count++), 'probe');
    if (!record.jobId) return { outcome: 'not_accepted', jobId: null, completedAt: null };
    while (Date.now() < deadline) {
      const status = await this.status(record.jobId);
      if (status === 'completed') return { outcome: 'completed', jobId: record.jobId, completedAt: Date.now() };
      if (status === 'failed' || status === 'cancelled') return { outcome: 'failed', jobId: record.jobId, completedAt: null };
      await sleep(POLL_MS);
    }
    return { outcome: 'timed_out', jobId: record.jobId, completedAt: null };
  }

  /** The job's status, or null while the api cannot answer (e.g. Postgres restarting). */
  private async status(jobId: string): Promise<string | null> {
    try {
      const response = await fetch(`${this.apiUrl}/v1/jobs/${jobId}`, {
        headers: { authorization: `Bearer ${this.apiKey}` },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      if (!response.ok) return null;
      return ((await response.json()) as { status?: string }).status ?? null;
    } catch {
      return null;
    }
  }
}
