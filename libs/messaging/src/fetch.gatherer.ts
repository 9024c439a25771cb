/**
 * Gathers the chunks a consumer's partitions hand over in the same turn of the event loop, so
 * that they are handled together rather than each on its own.
 *
 * Why: kafkajs hands every partition's batch of one fetch to its workers at once, and a consumer
 * handled each of them in a transaction of its own. At 100 jobs/s a relayed batch of Debezium's
 * spreads a topic's few new events over its six partitions, so most transactions carried one or
 * two events, each paying its own BEGIN, inbox statement, locks, COMMIT and WAL flush, and each
 * taking a connection and a round trip per statement on two busy cores. The chunks of one fetch
 * are handed over synchronously, one after another, before any of them awaits; gathering them
 * until the next `setImmediate` catches them all without waiting for anything else.
 */
export class FetchGatherer<T> {
  private pending: Array<{ items: readonly T[]; settle: (together: boolean) => void }> = [];
  private scheduled = false;

  /**
   * @param handleTogether handles the gathered items of several chunks, in the order they were
   *   offered; resolves true once all of them are durable, false (or throws) when they are not,
   *   having left them to be handled again.
   */
  constructor(private readonly handleTogether: (items: readonly T[]) => Promise<boolean>) {}

  /**
   * Offers one chunk. Resolves true once it was handled together with the chunks other
   * partitions offered in the same turn; false when no other chunk came (nothing was done with
   * it) or the joint handling failed: the caller then handles the chunk itself, as if it had
   * never been offered.
   */
  offer(items: readonly T[]): Promise<boolean> {
    return new Promise<boolean>((settle) => {
      this.pending.push({ items, settle });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const gathered = this.pending;
    this.pending = [];
    if (gathered.length === 1) {
      gathered[0]!.settle(false);
      return;
    }
    let together = false;
    try {
      together = await this.handleTogether(gathered.flatMap((chunk) => chunk.items));
    } catch {
      together = false;
    }
    for (const chunk of gathered) chunk.settle(together);
  }
}
