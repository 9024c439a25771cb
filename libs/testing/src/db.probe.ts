import type { Pool } from 'pg';
import { probePool } from './probe.pool';

/** Direct SQL for assertions on what the services wrote. */
export class DbProbe {
  private readonly pool: Pool;

  constructor(url: string) {
    this.pool = probePool({ connectionString: url, max: 4 });
  }

  async rows<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    return (await this.pool.query(text, params)).rows as T[];
  }

  async count(text: string, params: unknown[] = []): Promise<number> {
    const [row] = await this.rows<{ count: string }>(text, params);
    return Number(row?.count ?? 0);
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
