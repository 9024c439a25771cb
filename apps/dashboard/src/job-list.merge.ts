import type { JobListView, JobSummaryView } from '@longhaul/contracts';

// The job list polls the newest jobs while older pages may have been loaded with "More". This
// folds a fresh read of the top of the list into what is shown, without losing the older rows
// or the position to page on from.

/** What the job list shows: rows newest first, and where the next page starts. */
export interface JobListState {
  rows: JobSummaryView[];
  /** The `nextCursor` after the oldest row shown; null when it is the last job. */
  nextCursor: string | null;
}

/** Newest first, as `GET /v1/jobs` orders: by creation time, then id. */
function isOlder(a: JobSummaryView, than: JobSummaryView): boolean {
  return a.createdAt < than.createdAt || (a.createdAt === than.createdAt && a.id < than.id);
}

/**
 * Folds `fresh` (a read from the top of the list) into `state`: every row the read covers is
 * replaced by it (so a job that left the filter leaves the list), rows older than the read are
 * kept as they were, and the cursor stays the one after the oldest row kept. Timestamps are
 * compared as the api's ISO strings, which sort as they read.
 */
export function mergeTopOfList(state: JobListState, fresh: JobListView): JobListState {
  if (fresh.nextCursor === null || fresh.items.length === 0) return { rows: fresh.items, nextCursor: fresh.nextCursor };
  const oldestFresh = fresh.items[fresh.items.length - 1]!;
  const seen = new Set(fresh.items.map((item) => item.id));
  const older = state.rows.filter((row) => !seen.has(row.id) && isOlder(row, oldestFresh));
  return { rows: [...fresh.items, ...older], nextCursor: older.length > 0 ? state.nextCursor : fresh.nextCursor };
}

/**
 * Drops rows created before `since`, the start of a window that moves on with each read ("the
 * last hour"): a row loaded with "More" would otherwise stay after it aged out. Once one is
 * dropped, every later page lies outside the window too, so there is no next page.
 */
export function withinWindow(state: JobListState, since: string | null): JobListState {
  if (since === null) return state;
  const rows = state.rows.filter((row) => row.createdAt >= since);
  return rows.length === state.rows.length ? state : { rows, nextCursor: null };
}

/** Appends the next page ("More"), skipping a row already shown. */
export function appendPage(state: JobListState, page: JobListView): JobListState {
  const seen = new Set(state.rows.map((row) => row.id));
  return { rows: [...state.rows, ...page.items.filter((item) => !seen.has(item.id))], nextCursor: page.nextCursor };
}
