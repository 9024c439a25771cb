import { notifyAfterCommit, settleBeforeCommit, type Sql } from '@longhaul/persistence';
import { feedNotification, JOB_FEED_CHANNEL } from '../job-feed/job-feed.policy';

/** What a statement that moves a job's version and feed answers: the row it changed, if any. */
export type VersionedAnswer = Promise<Array<{ version: number | string; seq: number | string }>>;

/**
 * Settles a statement that gave job `jobId` its next version and a feed entry, before commit
 * (`settleBeforeCommit`): nothing waits for the answer, but the transaction rolls back unless the
 * job was found at `version`, the one the caller, holding its lock, expected. Once it is, the feed
 * entry is announced after commit. `what` names the change in the error (`step transcode not moved`).
 */
export async function settleVersionedWrite(sql: Sql, written: VersionedAnswer, jobId: string, version: number, what: string): Promise<void> {
  await settleBeforeCommit(
    sql,
    written.then(([row]) => {
      if (!row) throw new Error(`job ${jobId} does not exist: ${what}`);
      if (Number(row.version) !== version) throw new Error(`job ${jobId} is at version ${row.version}, not ${version}: ${what}`);
      notifyAfterCommit(sql, JOB_FEED_CHANNEL, feedNotification(jobId, Number(row.seq)));
    }),
  );
}
