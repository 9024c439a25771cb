/** What {@link deleteInBatches} did. */
export interface BatchDeletion {
  /** Rows deleted, all batches together. */
  deleted: number;
  /** Statements run. */
  batches: number;
}

/**
 * Deletes in bounded batches until one comes back short: `deleteBatch(limit)` deletes at most
 * `limit` rows in its own statement (its own transaction) and returns how many it deleted. Each
 * batch holds its row locks only for itself, so a large backlog never becomes one long
 * transaction and writers wait at most one batch. `shouldStop` is asked between batches (a
 * shutdown), so a long drain can be left for the next pass.
 */
export async function deleteInBatches(
  deleteBatch: (limit: number) => Promise<number>,
  batchSize: number,
  shouldStop: () => boolean = () => false,
): Promise<BatchDeletion> {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batch size must be a positive integer, got ${batchSize}`);
  let deleted = 0;
  let batches = 0;
  for (;;) {
    const count = await deleteBatch(batchSize);
    deleted += count;
    batches += 1;
    if (count < batchSize || shouldStop()) return { deleted, batches };
  }
}
