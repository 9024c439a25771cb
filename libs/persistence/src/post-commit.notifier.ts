import { setTimeout as delay } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import type { Sql } from './sql.executor';

/** Runs one parameterised statement on some pooled connection, outside any transaction. */
export type NotifyQuery = (text: string, params: unknown[]) => Promise<unknown>;

/**
 * The statement that sends queued notifications: one row per notification, in one implicit
 * transaction whose commit does not wait for its WAL flush (`set_config(…, true)` lasts to the
 * end of that transaction). Nothing but the notifications depends on that commit.
 *
 * In:  $1 channels, $2 payloads (text arrays of one length).
 * Out: one notification per pair, delivered to listeners once the statement commits.
 */
const SEND_SQL = `SELECT set_config('synchronous_commit', 'off', true), pg_notify(n.channel, n.payload)
  FROM unnest($1::text[], $2::text[]) AS n(channel, payload)`;

/**
 * Most bytes of one notification's payload. Postgres refuses a payload of 8000 bytes or more;
 * the rest is room for a last payload that does not fit and starts the next notification.
 */
export const MAX_NOTIFICATION_BYTES = 7_900;

/** What separates the payloads packed into one notification. A payload may not contain it. */
const PAYLOAD_SEPARATOR = '\n';

/**
 * The payloads one notification carries, in the order they were queued: a sender packs all it
 * has for a channel into as few notifications as {@link MAX_NOTIFICATION_BYTES} allows.
 */
export function notificationPayloads(payload: string | undefined): string[] {
  return payload ? payload.split(PAYLOAD_SEPARATOR) : [];
}

/**
 * The notifications that carry `payloads[i]` on `channels[i]`: a channel's payloads joined by
 * the separator, in order, a new notification whenever the next would pass
 * {@link MAX_NOTIFICATION_BYTES}. A payload that alone passes it, or holds the separator, is
 * not sent: it goes to `refused`.
 */
export function packNotifications(
  channels: readonly string[],
  payloads: readonly string[],
  refused: (payload: string, reason: string) => void = () => undefined,
): { channels: string[]; payloads: string[] } {
  const byChannel = new Map<string, string[]>();
  channels.forEach((channel, i) => {
    const payload = payloads[i]!;
    const bytes = Buffer.byteLength(payload);
    if (payload.includes(PAYLOAD_SEPARATOR)) return refused(payload, 'holds a line break, which separates packed payloads');
    if (bytes > MAX_NOTIFICATION_BYTES) return refused(payload, `is ${bytes} bytes, more than a notification carries (${MAX_NOTIFICATION_BYTES})`);
    const list = byChannel.get(channel);
    if (list) list.push(payload);
    else byChannel.set(channel, [payload]);
  });
  const packed = { channels: [] as string[], payloads: [] as string[] };
  for (const [channel, list] of byChannel) {
    let parts: string[] = [];
    let bytes = -1;
    for (const payload of list) {
      const size = Buffer.byteLength(payload);
      if (parts.length > 0 && bytes + 1 + size > MAX_NOTIFICATION_BYTES) {
        packed.channels.push(channel);
        packed.payloads.push(parts.join(PAYLOAD_SEPARATOR));
        parts = [];
        bytes = -1;
      }
      parts.push(payload);
      bytes += 1 + size;
    }
    packed.channels.push(channel);
    packed.payloads.push(parts.join(PAYLOAD_SEPARATOR));
  }
  return packed;
}

/** Options of {@link PostCommitNotifier}. */
export interface PostCommitNotifierOptions {
  /** Told of a send that failed (its notifications are dropped) and of a payload refused by {@link packNotifications}. */
  onError?: (error: unknown) => void;
  /**
   * Least time from the start of one send to the start of the next; what is queued meanwhile
   * goes together. @defaultValue {@link DEFAULT_NOTIFY_INTERVAL_MS}
   */
  minIntervalMs?: number;
}

/**
 * A busy api committed a statement every 2–3 ms and sent a notifying statement after each: as
 * many statements again on the pool, and a notification per job to every listening api
 * (docs/benchmarks/tuning.md, section 23). A stream hears of an entry at most this much later.
 */
export const DEFAULT_NOTIFY_INTERVAL_MS = 20;

/**
 * Sends Postgres notifications for changes that have already committed, from outside the
 * transactions that made them.
 *
 * Why not `pg_notify` inside the writing transaction: Postgres serialises every notifying
 * transaction's commit behind one database-wide lock, held through the commit's WAL flush, so
 * such commits never share a flush. On this project's machine 16 connections inserting one row
 * per transaction committed 3 341/s without a notification and 1 186/s with one. Every accept
 * and every saga transition announced a feed entry, so all of the api's writes queued there.
 *
 * What is queued goes in one statement, at most one statement per `minIntervalMs`: the first
 * notification after a quiet spell is sent on the next turn of the event loop, later ones wait
 * for the interval to pass, and a channel's payloads travel packed in as few notifications as
 * fit ({@link packNotifications}; listeners unpack them with {@link notificationPayloads}).
 * Delivery is at most once: a process that dies between a commit and the send, or a send that
 * fails, loses the notification. Listeners must treat a notification as a hint to read, with a
 * timed re-read behind it (the job feed's streams re-read every few seconds).
 */
export class PostCommitNotifier {
  private channels: string[] = [];
  private payloads: string[] = [];
  private sending: Promise<void> | null = null;
  /** `performance.now()` when the last send started. */
  private lastSendAt = -Infinity;
  private readonly minIntervalMs: number;
  private readonly onError: (error: unknown) => void;

  constructor(
    private readonly query: NotifyQuery,
    options: PostCommitNotifierOptions = {},
  ) {
    this.minIntervalMs = Math.max(0, options.minIntervalMs ?? DEFAULT_NOTIFY_INTERVAL_MS);
    this.onError = options.onError ?? (() => undefined);
  }

  /** Queues a notification; it is sent soon, together with whatever else is queued by then. */
  notify(channel: string, payload: string): void {
    this.channels.push(channel);
    this.payloads.push(payload);
    this.sending ??= this.sendQueued();
  }

  /** Resolves once nothing queued so far is still unsent (tests, shutdown). */
  async flushed(): Promise<void> {
    while (this.sending) await this.sending;
  }

  private async sendQueued(): Promise<void> {
    while (this.channels.length > 0) {
      const wait = this.lastSendAt + this.minIntervalMs - performance.now();
      // Whatever else this turn of the event loop queues goes in the same statement.
      await (wait > 0 ? delay(wait) : new Promise((resolve) => setImmediate(resolve)));
      const packed = packNotifications(this.channels, this.payloads, (payload, reason) =>
        this.onError(new Error(`notification payload not sent: it ${reason}: ${payload.slice(0, 80)}`)),
      );
      this.channels = [];
      this.payloads = [];
      this.lastSendAt = performance.now();
      if (packed.channels.length === 0) continue;
      try {
        await this.query(SEND_SQL, [packed.channels, packed.payloads]);
      } catch (error) {
        this.onError(error);
      }
    }
    this.sending = null;
  }
}

const notifiers = new WeakMap<DataSource, PostCommitNotifier>();

/**
 * The one {@link PostCommitNotifier} of `dataSource`, sending on its pool. A failed send is
 * dropped: it happens when the database is unreachable, and listeners re-read on a timer.
 */
export function postCommitNotifier(dataSource: DataSource): PostCommitNotifier {
  let notifier = notifiers.get(dataSource);
  if (!notifier) {
    notifier = new PostCommitNotifier((text, params) => dataSource.query(text, params));
    notifiers.set(dataSource, notifier);
  }
  return notifier;
}

/**
 * Announces `payload` on `channel` once `sql`'s transaction has committed (at once when `sql` is
 * not in one: its statements are committed as they return), never after a rollback. In place of
 * `pg_notify` inside the transaction, which would serialise its commit with every other
 * notifying one ({@link PostCommitNotifier}). A test double without `notify` sends nothing.
 */
export function notifyAfterCommit(sql: Sql, channel: string, payload: string): void {
  sql.notify?.(channel, payload);
}
