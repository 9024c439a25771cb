import type { QueryRunner } from 'typeorm';

/**
 * The narrow SQL surface repositories use: parameterised statements on one connection, usually
 * inside a transaction. Repositories take it as an argument, so a caller decides what shares a
 * transaction (the inbox row and the effect it guards, a work item and its outbox event).
 */
export interface Sql {
  /** Runs a statement and returns its rows. */
  rows<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs a statement and returns how many rows it changed. */
  execute(text: string, params?: unknown[]): Promise<number>;
}

/** Adapts a TypeORM query runner to {@link Sql}. */
export function sqlFromQueryRunner(runner: QueryRunner): Sql {
  return {
    async rows<T>(text: string, params: unknown[] = []): Promise<T[]> {
      const result = await runner.query(text, params, true);
      return result.records as T[];
    },
    async execute(text: string, params: unknown[] = []): Promise<number> {
      const result = await runner.query(text, params, true);
      return result.affected ?? result.records.length;
    },
  };
}
