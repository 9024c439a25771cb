import { Pool } from 'pg';

/** Direct SQL for assertions on what the services wrote. */
export class DbProbe {
  private readonly pool: Pool;

  constructor(url: string) {
    this.pool = new Pool({ connectionString: url, max: 4 });
    // An idle connection the server ends (a restart, a scratch database dropped WITH (FORCE))
    // must not take the process down: the next query opens another.
    this.pool.on('error', () => undefined);
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
