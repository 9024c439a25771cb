import { Inject, Injectable } from '@nestjs/common';
import type { JobListView, ListJobsQuery } from '@longhaul/contracts';
import { withConnection, type DataSource } from '@longhaul/persistence';
import { DATA_SOURCE } from '@longhaul/platform';
import { decodeJobCursor, encodeJobCursor } from './job-cursor';
import { JobSummaryRepository } from './job-summary.repository';
import { InvalidJobCursorError } from './list-jobs.errors';
import { toUtcInstant } from './utc-instant.format';

/**
 * `GET /v1/jobs`: jobs newest first, filtered by status, type and creation time, a page at a time. Pages are cut
 * by position (keyset), not offset, so a job submitted while a client pages neither shifts nor
 * repeats what it sees; `nextCursor` is null on the last page.
 */
@Injectable()
export class ListJobsService {
  private readonly summaries = new JobSummaryRepository();

  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** `tenantId`'s jobs only. */
  async list(query: ListJobsQuery, tenantId: string): Promise<JobListView> {
    const after = query.cursor === undefined ? null : decodeJobCursor(query.cursor);
    if (query.cursor !== undefined && !after) throw new InvalidJobCursorError();
    // One more than asked for tells whether another page follows, without a count.
    const rows = await withConnection(this.dataSource, (sql) =>
      this.summaries.page(sql, {
        tenantId,
        status: query.status,
        type: query.type,
        createdSince: query.createdSince === undefined ? undefined : toUtcInstant(query.createdSince),
        createdBefore: query.createdBefore === undefined ? undefined : toUtcInstant(query.createdBefore),
        after,
        limit: query.limit + 1,
      }),
    );
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: page.map((row) => row.view),
      nextCursor: rows.length > query.limit && last ? encodeJobCursor(last.cursor) : null,
    };
  }
}
