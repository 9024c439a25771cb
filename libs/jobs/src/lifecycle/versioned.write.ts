import { notifyAfterCommit, settleAtCommit, type Sql } from '@longhaul/persistence';
import { feedNotification, JOB_FEED_CHANNEL } from '../job-feed/job-feed.policy';

/** What a statement that moves a job's version and feed answers: the row it changed. */
export type VersionedAnswer = Promise<Array<{ version: number | string; seq: number | string }>>;

/**
 * Settles a statement that gave job `jobId` its next version and a feed entry at commit
 * (`settleAtCommit`): nothing waits for its answer, and COMMIT goes out right behind it. The
 * statement checks the version itself: it updates the job row only at the version the caller,
 * holding its lock, read, and otherwise fails (`api.job_version_conflict`: SQLSTATE `LH409`, or
 * `LH404` for a job that does not exist), which aborts the transaction, so Postgres answers
 * COMMIT by rolling back and the transaction throws that error.
 * Nothing is checked here: an answer cannot fail a transaction whose COMMIT is already on its
 * way. Once it commits, the feed's new entry is announced (`notifyAfterCommit`).
 */
export async function settleVersionedWrite(sql: Sql, written: VersionedAnswer, jobId: string): Promise<void> {
  await settleAtCommit(
    sql,
    written.then(([row]) => {
      if (row) notifyAfterCommit(sql, JOB_FEED_CHANNEL, feedNotification(jobId, Number(row.seq)));
    }),
  );
}
