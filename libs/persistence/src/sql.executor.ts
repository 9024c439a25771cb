import type { QueryRunner } from 'typeorm';

/** The part of node-postgres' client that a query runner's connection is. */
interface PgClient {
  query<T>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: T[] }>;
}

/**
 * The narrow SQL surface repositories use: parameterised statements on one connection, usually
 * inside a transaction. Repositories take it as an argument, so a caller decides what shares a
 * transaction (the inbox row and the effect it guards, a work item and its outbox event).
 */
export interface Sql {
  /** Runs a statement and returns its rows. */
  rows<T = Record<string, unknown>>(text: string, params?: unknown[], options?: StatementOptions): Promise<T[]>;
  /** Runs a statement and returns how many rows it changed. */
  execute(text: string, params?: unknown[]): Promise<number>;
  /**
   * Runs `effect` once what was done on this connection is durable: after the commit inside
   * {@link inTransaction} (never, if it rolls back), at once elsewhere. Use {@link afterCommit},
   * which also serves test doubles that leave this out.
   */
  afterCommit?(effect: () => void): void;
}

/** How a statement is sent. */
export interface StatementOptions {
  /**
   * Sends it as a named prepared statement: each pooled connection parses and plans it once,
   * and after that sends only the name and the values. For a hot statement whose planning costs
   * as much as running it (submit's one-statement accept); the name must be unique to the text.
   */
  prepare?: string;
}

/**
 * Runs `effect` after `sql`'s transaction commits, or at once when there is none. For effects
 * outside the database that must not count a change that rolls back and is then redone (a
 * metric counting finished jobs, for one); an effect that throws is ignored, since the commit
 * has already happened.
 */
export function afterCommit(sql: Sql, effect: () => void): void {
  if (sql.afterCommit) sql.afterCommit(effect);
  else runQuietly(effect);
}

/** Runs `effect`, ignoring what it throws. */
export function runQuietly(effect: () => void): void {
  try {
    effect();
  } catch {
    // An after-commit effect never turns a committed change into a failure.
  }
}

/**
 * Adapts a TypeORM query runner to {@link Sql}. `onCommit` collects after-commit effects for a
 * transaction; without it they run at once.
 */
export function sqlFromQueryRunner(runner: QueryRunner, onCommit?: Array<() => void>): Sql {
  return {
    afterCommit(effect: () => void): void {
      if (onCommit) onCommit.push(effect);
      else runQuietly(effect);
    },
    async rows<T>(text: string, params: unknown[] = [], options: StatementOptions = {}): Promise<T[]> {
      if (options.prepare) {
        // TypeORM's runner sends unnamed statements only; the pg client under it names them.
        const client = (await runner.connect()) as PgClient;
        const result = await client.query<T>({ name: options.prepare, text, values: params });
        return result.rows;
      }
      const result = await runner.query(text, params, true);
      return result.records as T[];
    },
    async execute(text: string, params: unknown[] = []): Promise<number> {
      const result = await runner.query(text, params, true);
      return result.affected ?? result.records.length;
    },
  };
}
