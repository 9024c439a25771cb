import { Inject, Injectable } from '@nestjs/common';
import type { JobView } from '@longhaul/contracts';
import { withConnection, type DataSource } from '@longhaul/persistence';
import { DATA_SOURCE } from '@longhaul/platform';
import { JobNotFoundError } from '../job.errors';
import { loadJobView } from './job.view-builder';

/** Reads one job with its steps, attempts and stage. */
@Injectable()
export class GetJobService {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async get(jobId: string): Promise<JobView> {
    const job = await withConnection(this.dataSource, (sql) => loadJobView(sql, jobId));
    if (!job) throw new JobNotFoundError(jobId);
    return job;
  }
}
