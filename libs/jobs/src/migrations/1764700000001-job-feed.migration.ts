import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * The job feed behind `GET /v1/jobs/{id}/events`: `job_feed` keeps every status change and
 * progress report of a job, numbered by `jobs.feed_seq` (taken under the job's row lock, so the
 * numbers follow commit order without gaps). Jobs accepted before the feed existed get one entry,
 * their current status, so every feed starts with a `job.status`. Also the index `GET /v1/jobs`
 * pages through, newest first.
 */
export class JobFeed1764700000001 implements MigrationInterface {
  name = 'JobFeed1764700000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE api.jobs ADD COLUMN feed_seq integer NOT NULL DEFAULT 0`);
    await runner.query(`
      CREATE TABLE api.job_feed (
        job_id     uuid NOT NULL REFERENCES api.jobs (id) ON DELETE CASCADE,
        seq        integer NOT NULL,
        kind       text NOT NULL,
        data       jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (job_id, seq)
      )`);
    await runner.query(`
      INSERT INTO api.job_feed (job_id, seq, kind, data, created_at)
      SELECT id, 1, 'job.status',
             jsonb_build_object(
               'kind', 'job.status', 'jobId', id, 'seq', 1,
               'at', to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'status', status, 'result', result, 'error', error),
             updated_at
        FROM api.jobs`);
    await runner.query(`UPDATE api.jobs SET feed_seq = 1`);
    await runner.query(`CREATE INDEX jobs_created_idx ON api.jobs (created_at DESC, id DESC)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX IF EXISTS api.jobs_created_idx`);
    await runner.query(`DROP TABLE IF EXISTS api.job_feed`);
    await runner.query(`ALTER TABLE api.jobs DROP COLUMN feed_seq`);
  }
}
