import type { JobStatus } from './job-status';

/** One job as `GET /v1/jobs` lists it: enough for a row of a list; `GET /v1/jobs/{id}` has the rest. */
export interface JobSummaryView {
  id: string;
  type: string;
  status: JobStatus;
  createdAt: string;
  updatedAt: string;
  traceId: string | null;
  /** The running step's progress (0..1), or null when no step runs or it reported none. */
  progress: number | null;
}

/** `GET /v1/jobs`: a page of jobs, newest first. */
export interface JobListView {
  items: JobSummaryView[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}
