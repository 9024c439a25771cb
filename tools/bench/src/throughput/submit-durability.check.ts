import type { DbProbe } from '@longhaul/testing';
import type { SubmitRun } from './submit.load';

/** What "every accepted job is durably committed" was checked against. */
export interface DurabilityCheck {
  /** 202 answers over every run, warm-ups and the profiled run included. */
  accepted: number;
  /** Job ids read from those answers' `Location`. */
  acceptedIds: number;
  /** Of those ids, the ones that are rows of `api.jobs`. */
  idsFound: number;
  /** Rows of the tenant in `api.jobs` after the runs minus before. */
  rowsAdded: number;
  /** Requests still in flight when a run ended: their answers were never read, but they may have committed. */
  cutOff: number;
  /** Status of the accepted jobs when they were looked up (nothing consumes them: `pending`). */
  statuses: Record<string, number>;
}

/** Ids per query: a `uuid[]` parameter of this size is a few hundred kilobytes. */
const ID_BATCH = 10_000;

/**
 * Looks up every job id `runs` were told was accepted, and takes the tenant's rows added while
 * they ran; see {@link durabilityVerdict}.
 */
export async function checkDurability(db: DbProbe, tenantId: string, runs: readonly SubmitRun[], rowsBefore: number, rowsAfter: number): Promise<DurabilityCheck> {
  const ids = runs.flatMap((r) => r.acceptedIds);
  const statuses: Record<string, number> = {};
  for (let i = 0; i < ids.length; i += ID_BATCH) {
    const rows = await db.rows<{ status: string; count: string }>(
      `SELECT status, count(*) FROM api.jobs WHERE tenant_id = $1 AND id = ANY($2::uuid[]) GROUP BY status`,
      [tenantId, ids.slice(i, i + ID_BATCH)],
    );
    for (const row of rows) statuses[row.status] = (statuses[row.status] ?? 0) + Number(row.count);
  }
  return {
    accepted: runs.reduce((sum, r) => sum + (r.byStatus['202'] ?? 0), 0),
    acceptedIds: ids.length,
    idsFound: Object.values(statuses).reduce((sum, n) => sum + n, 0),
    rowsAdded: rowsAfter - rowsBefore,
    cutOff: runs.reduce((sum, r) => sum + r.cutOff, 0),
    statuses,
  };
}

/** Checks of several runs as one. */
export function sumDurability(checks: readonly DurabilityCheck[]): DurabilityCheck {
  const statuses: Record<string, number> = {};
  for (const check of checks) for (const [status, count] of Object.entries(check.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
  const total = (pick: (c: DurabilityCheck) => number) => checks.reduce((sum, c) => sum + pick(c), 0);
  return {
    accepted: total((c) => c.accepted),
    acceptedIds: total((c) => c.acceptedIds),
    idsFound: total((c) => c.idsFound),
    rowsAdded: total((c) => c.rowsAdded),
    cutOff: total((c) => c.cutOff),
    statuses,
  };
}

/**
 * Whether the check passed: every 202 carried a job id and each id is a committed row, and the
 * rows added are exactly the 202s plus at most the requests cut off in flight (the api commits a
 * job whether or not its client is still there to read the answer).
 */
export function durabilityVerdict(check: DurabilityCheck): { passed: boolean; unanswered: number; problems: string[] } {
  const problems: string[] = [];
  if (check.acceptedIds !== check.accepted) problems.push(`${check.accepted - check.acceptedIds} of the 202 answers carried no job id`);
  if (check.idsFound !== check.acceptedIds) problems.push(`${check.acceptedIds - check.idsFound} accepted jobs are not in api.jobs`);
  const unanswered = check.rowsAdded - check.accepted;
  if (unanswered < 0) problems.push(`${-unanswered} fewer rows were added than jobs accepted`);
  if (unanswered > check.cutOff) problems.push(`${unanswered - check.cutOff} more rows were added than jobs accepted or cut off in flight`);
  return { passed: problems.length === 0, unanswered, problems };
}
