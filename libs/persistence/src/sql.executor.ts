import { createHash } from 'node:crypto';
import type { PgClient, PgResult } from './pg.transaction';
import type { PostCommitNotifier } from './post-commit.notifier';

/** Statements that may be prepared: Postgres plans these, and can keep the plan. */
const PLANNABLE = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i;

/** Most statement texts whose names are remembered; past it the oldest is forgotten (and named again). */
const MAX_NAMED_TEXTS = 2_000;
const names = new Map<string, string>();

/**
 * The prepared-statement name of `text`, derived from the text itself so every connection of
 * every pool agrees on it; null for a statement that is not planned (`SET`, DDL).
 */
export function statementName(text: string): string | null {
  const known = names.get(text);
  if (known !== undefined) return known;
  if (!PLANNABLE.test(text)) return null;
  const name = `lh_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  if (names.size >= MAX_NAMED_TEXTS) names.delete(names.keys().next().value!);
  names.set(text, name);
  return name;
}

/** Sends statements on one pg client: on a transaction's, when there is one. */
type Sender = Pick<PgClient, 'query'>;

/**
 * Sends a statement on `sender` as a named prepared statement: each connection parses it once,
 * and Postgres may keep its plan (after five runs it switches to a generic plan when that costs
 * no more), so a hot statement is neither parsed nor planned again. Sent unnamed, as TypeORM's
 * runner sends everything, the services' statements spent about 0.7 as long being planned as
 * being run (pg_stat_statements with `track_planning`, simulated jobs at 50/s). Statement texts
 * must therefore not embed values: those go in `params`. The statement is handed to the client
 * before this returns, so statements issued one after another without awaiting run in that order.
 */
function send<T>(sender: Sender, text: string, params: unknown[]): Promise<PgResult<T>> {
  const name = statementName(text);
  return sender.query<T>(name ? { name, text, values: params } : { text, values: params });
}

/**
 * The narrow SQL surface repositories use: parameterised statements on one connection, usually
 * inside a transaction. Repositories take it as an argument, so a caller decides what shares a
 * transaction (the inbox row and the effect it guards, a work item and its outbox event).
 */
export interface Sql {
  /**
   * Runs a statement and returns its rows. Every SELECT, INSERT, UPDATE, DELETE and WITH is sent
   * as a prepared statement named after its text, so a text must not embed values. Statements
   * run in the order they are issued: one whose answer the next does not need may be issued
   * without awaiting it, and on a pipelining connection (`createDataSource`'s) the next then
   * goes out before the first is answered.
   */
  rows<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs a statement and returns how many rows it changed. */
  execute(text: string, params?: unknown[]): Promise<number>;
  /**
   * Runs `effect` once what was done on this connection is durable: after the commit inside
   * {@link inTransaction} (never, if it rolls back), at once elsewhere. Use {@link afterCommit},
   * which also serves test doubles that leave this out.
   */
  afterCommit?(effect: () => void): void;
  /**
   * Runs `effect` if the transaction inside {@link inTransaction} ends without committing (a
   * rollback, or a commit that failed); never outside one. Use {@link afterRollback}.
   */
  afterRollback?(effect: () => void): void;
  /**
   * Sends a Postgres notification once what was done on this connection is committed. Use
   * {@link notifyAfterCommit}, which also serves test doubles that leave this out.
   */
  notify?(channel: string, payload: string): void;
  /**
   * Lets the transaction inside {@link inTransaction} settle `pending`, a write already issued on
   * this connection, at commit instead of its caller waiting for it now; `checked` when `pending`
   * also checks the answer (COMMIT then waits for it). Absent outside a transaction. Use
   * {@link settleAtCommit} and {@link settleBeforeCommit}.
   */
  settleAtCommit?(pending: Promise<unknown>, checked: boolean): void;
  /**
   * Holds a row for `target` until the transaction inside {@link inTransaction} commits, when the
   * rows held for one table go out in ONE statement. Absent outside a transaction. Use
   * {@link insertAtCommit}.
   */
  insertAtCommit?(target: RowsTarget, values: unknown[]): void;
}

/** A table a transaction appends rows to at commit ({@link insertAtCommit}). */
export interface RowsTarget {
  /** The table as it goes into the statement, schema-qualified and quoted: `"transcoder".outbox`. */
  table: string;
  /** Its columns, in the order of each row's values. */
  columns: readonly string[];
}

/**
 * Most rows of one INSERT a transaction's held rows go out in: far below Postgres's 65 535
 * parameters for any table here, and it bounds how many statement texts (one per row count) each
 * connection prepares.
 */
export const MAX_ROWS_PER_INSERT = 100;

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

/**
 * Runs `effect` if `sql`'s transaction does not commit: to give back what the work held for an
 * effect that will now never happen (a step slot reserved for an item that was not written).
 * Nothing happens outside a transaction, or with a test double that leaves this out.
 */
export function afterRollback(sql: Sql, effect: () => void): void {
  sql.afterRollback?.(effect);
}

/**
 * Hands `statement` — the promise of a write just issued on `sql`, nothing else — to the
 * transaction, which settles it at commit: COMMIT goes out right behind it, without waiting for
 * its answer. Postgres runs a connection's statements in order, and a statement that fails aborts
 * the transaction, so Postgres then answers COMMIT by rolling back; {@link inTransaction} throws
 * the statement's failure. Resolves at once, so the caller goes on to issue its next statement:
 * on a pipelining connection a transaction's writes and its COMMIT then cost one round trip for
 * all of them instead of one each. Outside a transaction, or on a test double without the hook,
 * it waits for the statement.
 *
 * Only for writes whose answer decides nothing: the caller never learns it. A write whose answer
 * must be checked goes to {@link settleBeforeCommit}.
 */
export async function settleAtCommit(sql: Sql, statement: Promise<unknown>): Promise<void> {
  if (sql.settleAtCommit) sql.settleAtCommit(statement, false);
  else await statement;
}

/**
 * Like {@link settleAtCommit}, for a write together with a check of its answer (a row that must
 * have been found, a version that must match): the transaction waits for `checked` before it
 * sends COMMIT, and rolls back with its failure when it throws. Costs the transaction one round
 * trip before COMMIT, however many such writes it holds.
 */
export async function settleBeforeCommit(sql: Sql, checked: Promise<unknown>): Promise<void> {
  if (sql.settleAtCommit) sql.settleAtCommit(checked, true);
  else await checked;
}

/**
 * Inserts a row into `target.table` as part of `sql`'s transaction, at its commit: the rows a
 * transaction hands over for one table are written by ONE multi-row INSERT (up to
 * {@link MAX_ROWS_PER_INSERT} rows each) sent right before COMMIT, in the order they were handed
 * over, and settled as {@link settleAtCommit} settles a write: a failure rolls the transaction
 * back. Outside a transaction, or on a test double without the hook, the row is inserted at once.
 *
 * Why: a consumer's transaction handles tens of events, and a worker's success batch tens of
 * items, each of which appended its own row (an outbox event, a received event) with a statement
 * of its own; Postgres then bound, planned and ran as many single-row INSERTs, each one more
 * message for the client to build and the server to answer.
 *
 * Only for rows that nothing in the same transaction reads back or refers to, and whose order
 * matters only among themselves: every row held for a table lands after the transaction's other
 * statements.
 */
export async function insertAtCommit(sql: Sql, target: RowsTarget, values: unknown[]): Promise<void> {
  if (sql.insertAtCommit) sql.insertAtCommit(target, values);
  else await sql.execute(insertRowsSql(target, 1), values);
}

/** A multi-row `INSERT … VALUES` of `rows` rows into `target`, numbered parameters row by row. */
function insertRowsSql(target: RowsTarget, rows: number): string {
  const width = target.columns.length;
  const tuples: string[] = [];
  for (let row = 0; row < rows; row++) {
    tuples.push(`(${target.columns.map((_, column) => `$${row * width + column + 1}`).join(', ')})`);
  }
  return `INSERT INTO ${target.table} (${target.columns.join(', ')}) VALUES ${tuples.join(', ')}`;
}

/**
 * Sends the rows `hooks` holds ({@link insertAtCommit}) on `sql`, table by table in the order each
 * was first handed a row, and hands each statement to the transaction to settle at commit.
 */
export function flushRowsAtCommit(sql: Sql, hooks: TransactionHooks): void {
  for (const { target, rows } of hooks.rows.values()) {
    for (let start = 0; start < rows.length; start += MAX_ROWS_PER_INSERT) {
      const chunk = rows.slice(start, start + MAX_ROWS_PER_INSERT);
      void settleAtCommit(sql, sql.execute(insertRowsSql(target, chunk.length), chunk.flat()));
    }
  }
  hooks.rows.clear();
}

/** Runs `effect`, ignoring what it throws. */
export function runQuietly(effect: () => void): void {
  try {
    effect();
  } catch {
    // An after-commit effect never turns a committed change into a failure.
  }
}

/** What a transaction collects to run once it has ended, and the writes it settles at commit. */
export interface TransactionHooks {
  onCommit: Array<() => void>;
  onRollback: Array<() => void>;
  /**
   * Writes issued without waiting, in the order they were handed over; `checked` for those of
   * {@link settleBeforeCommit}.
   */
  pending: Array<{ promise: Promise<unknown>; checked: boolean }>;
  /** Rows held for commit ({@link insertAtCommit}), by table and columns, in the order handed over. */
  rows: Map<string, { target: RowsTarget; rows: unknown[][] }>;
}

/**
 * {@link Sql} on a connected pg client, or on a transaction of it. `hooks` collects after-commit
 * and after-rollback effects for a transaction; without them (no transaction) after-commit
 * effects run at once and after-rollback ones never. Notifications go through `notifier`, after
 * commit.
 */
export function sqlOn(sender: Sender, hooks?: TransactionHooks, notifier?: PostCommitNotifier): Sql {
  const afterCommit = (effect: () => void): void => {
    if (hooks) hooks.onCommit.push(effect);
    else runQuietly(effect);
  };
  return {
    afterCommit,
    afterRollback(effect: () => void): void {
      hooks?.onRollback.push(effect);
    },
    notify(channel: string, payload: string): void {
      if (notifier) afterCommit(() => notifier.notify(channel, payload));
    },
    ...(hooks
      ? {
          settleAtCommit(pending: Promise<unknown>, checked: boolean): void {
            // Observed at once: a write that fails before commit looks at it must not surface
            // as an unhandled rejection; commit reads its outcome from `hooks.pending`.
            pending.catch(() => undefined);
            hooks.pending.push({ promise: pending, checked });
          },
          insertAtCommit(target: RowsTarget, values: unknown[]): void {
            const key = `${target.table}(${target.columns.join(',')})`;
            const held = hooks.rows.get(key);
            if (held) held.rows.push(values);
            else hooks.rows.set(key, { target, rows: [values] });
          },
        }
      : {}),
    async rows<T>(text: string, params: unknown[] = []): Promise<T[]> {
      return (await send<T>(sender, text, params)).rows;
    },
    async execute(text: string, params: unknown[] = []): Promise<number> {
      const result = await send(sender, text, params);
      return result.rowCount ?? result.rows.length;
    },
  };
}
