import { Inject, Injectable } from '@nestjs/common';
import type { JobView } from '@longhaul/contracts';
import { withConnection, type DataSource } from '@longhaul/persistence';
import { DATA_SOURCE } from '@longhaul/platform';
import { JobNotFoundError } from '../job.errors';
import { JobRepository } from '../job.repository';

/** Reads one job with its steps. */
@Injectable()
export class GetJobService {
  private readonly jobs = new JobRepository();

  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async get(jobId: string): Promise<JobView> {
    const job = await withConnection(this.dataSource, (sql) => this.jobs.findView(sql, jobId));
    if (!job) throw new JobNotFoundError(jobId);
    return job;
  }
}
