import type { JobDeliveriesView } from '@longhaul/contracts';
import { withConnection, type DataSource } from '@longhaul/persistence';
import { JobNotFoundError } from '../job.errors';
import { DeliveryRepository } from './delivery.repository';

/** `GET /v1/jobs/{id}/deliveries`: every webhook and email sent (or being sent) about the job. */
export class JobDeliveriesService {
  private readonly deliveries = new DeliveryRepository();

  constructor(private readonly dataSource: DataSource) {}

  /** 404 unless the job is `tenantId`'s. */
  async forJob(jobId: string, tenantId: string): Promise<JobDeliveriesView> {
    return withConnection(this.dataSource, async (sql) => {
      const [job] = await sql.rows(`SELECT 1 FROM api.jobs WHERE id = $1 AND tenant_id = $2`, [jobId, tenantId]);
      if (!job) throw new JobNotFoundError(jobId);
      return { items: await this.deliveries.forJob(sql, jobId) };
    });
  }
}
