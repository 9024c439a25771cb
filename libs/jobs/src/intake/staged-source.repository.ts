import { withConnection, type DataSource } from '@longhaul/persistence';

/** Records a fetched source before it is stored, so a crash before its job commits cannot leak it. */
export interface StagedSources {
  stage(jobId: string): Promise<void>;
}

/**
 * Stages a fetched source in `api.blob_purges` (kind `source`), in a statement of its own that
 * commits BEFORE the blob is stored. The job's transaction comes later; if the api dies in
 * between (or the job is refused and the cleanup fails), the row outlives the process and
 * `BlobPurger` deletes the job's blob folders once the row is older than
 * `STAGED_SOURCE_GRACE_MS` and no job with that id exists. A job that did commit only loses the
 * row. The accept statement itself stays as it is: only URL submits pay this one insert.
 */
export class StagedSourceRepository implements StagedSources {
  constructor(private readonly dataSource: DataSource) {}

  async stage(jobId: string): Promise<void> {
    await withConnection(this.dataSource, (sql) =>
      sql.execute(`INSERT INTO api.blob_purges (job_id, kind) VALUES ($1, 'source') ON CONFLICT DO NOTHING`, [jobId]),
    );
  }
}
