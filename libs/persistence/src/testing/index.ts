/**
 * Test helpers of `@longhaul/persistence`, for specs only (`@longhaul/persistence/testing`).
 */

import type { Sql } from '../sql.executor';

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

/** The transaction calls of a TypeORM runner a stand-in may have, and the statement each stands for. */
const TRANSACTION_CALLS = { BEGIN: 'startTransaction', COMMIT: 'commitTransaction', ROLLBACK: 'rollbackTransaction' } as const;

/**
 * Gives a stand-in query runner the pg client `Sql` sends its statements through
 * (`runner.connect()` resolves to it): each statement, named or not, goes to `runner.query`, and
 * its answer comes back as pg's `rows` and `rowCount`. BEGIN, COMMIT and ROLLBACK, which
 * `inTransaction` sends on the client, go to the stand-in's `startTransaction`,
 * `commitTransaction` and `rollbackTransaction` when it has them. Returns the runner.
 */
export function withPgClient<R extends FakeQueryRunner>(runner: R): R {
  const client = {
    query: async ({ text, values }: { text: string; values?: unknown[] }) => {
      const call = TRANSACTION_CALLS[text as keyof typeof TRANSACTION_CALLS];
      const stand = call ? (runner[call] as (() => Promise<unknown>) | undefined) : undefined;
      if (stand) {
        await stand.call(runner);
        return { rows: [], rowCount: null };
      }
      const result = await runner.query(text, values ?? []);
      return { rows: result.records, rowCount: result.affected ?? null };
    },
  };
  return Object.assign(runner, { connect: async () => client });
}

/** A statement sent to a {@link recordingSql}. */
export interface SentStatement {
  text: string;
  params: unknown[];
}

/**
 * A stand-in `Sql` that records every statement it is sent, in order (`sent`). `rows` answers
 * with `options.rows(text, params)`, no rows by default; `execute` with `options.changed`
 * rows changed, 0 by default.
 */
export function recordingSql(options: { rows?: (text: string, params: unknown[]) => unknown[]; changed?: number } = {}): {
  sql: Sql;
  sent: SentStatement[];
} {
  const sent: SentStatement[] = [];
  const sql: Sql = {
    rows: async <T>(text: string, params: unknown[] = []) => {
      sent.push({ text, params });
      return (options.rows?.(text, params) ?? []) as T[];
    },
    execute: async (text: string, params: unknown[] = []) => {
      sent.push({ text, params });
      return options.changed ?? 0;
    },
  };
  return { sql, sent };
}
