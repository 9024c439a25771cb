/**
 * Test helpers of `@longhaul/persistence`, for specs only (`@longhaul/persistence/testing`).
 */

/** What a stand-in query runner answers a statement with, in TypeORM's shape. */
export interface FakeQueryResult {
  records: unknown[];
  affected?: number;
}

/** A stand-in TypeORM query runner: whatever a spec needs, and a `query` that answers statements. */
export interface FakeQueryRunner {
  query(text: string, params?: unknown[]): Promise<FakeQueryResult> | FakeQueryResult;
  [member: string]: unknown;
}

/**
 * Gives a stand-in query runner the pg client `Sql` sends its statements through
 * (`runner.connect()` resolves to it): each statement, named or not, goes to `runner.query`, and
 * its answer comes back as pg's `rows` and `rowCount`. Returns the runner.
 */
export function withPgClient<R extends FakeQueryRunner>(runner: R): R {
  const client = {
    query: async ({ text, values }: { text: string; values?: unknown[] }) => {
      const result = await runner.query(text, values ?? []);
      return { rows: result.records, rowCount: result.affected ?? null };
    },
  };
  return Object.assign(runner, { connect: async () => client });
}
