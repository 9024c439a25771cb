import { Inject, Injectable } from '@nestjs/common';
import type { JobView } from '@longhaul/contracts';
import { withConnection, type DataSource } from '@longhaul/persistence';
import { DATA_SOURCE } from '@longhaul/platform';
import { BLOB_STORE, type BlobStore } from '@longhaul/storage';
import { JobNotFoundError } from '../job.errors';
import { JOBS_OPTIONS, type JobsModuleOptions } from '../jobs.options';
import { OutputLinks } from '../outputs/output-links';
import { loadJobView } from './job.view-builder';

/** Reads one job with its steps, attempts, stage and download links. */
@Injectable()
export class GetJobService {
  private readonly links: OutputLinks;

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(BLOB_STORE) store: BlobStore | null,
    @Inject(JOBS_OPTIONS) options: JobsModuleOptions,
  ) {
    this.links = new OutputLinks(store, options.downloadUrlTtlSeconds, options.downloadSigningKey);
  }

  /** The job, when it is `tenantId`'s; 404 otherwise. */
  async get(jobId: string, tenantId: string): Promise<JobView> {
    const job = await withConnection(this.dataSource, (sql) => loadJobView(sql, jobId, (id, results) => this.links.link(id, results), tenantId));
    if (!job) throw new JobNotFoundError(jobId);
    return job;
  }
}
