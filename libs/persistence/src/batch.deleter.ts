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
 * transaction and writers wait at most one batch. After each full batch `rest(batchMs)` is
 * awaited with the time that batch took ({@link restingFor}), so a backlog is worked off at a
 * bounded share of the database instead of in one burst. `shouldStop` is asked between batches
 * (a shutdown), so a long drain can be left for the next pass.
 */
export async function deleteInBatches(
  deleteBatch: (limit: number) => Promise<number>,
  batchSize: number,
  shouldStop: () => boolean = () => false,
  rest: (batchMs: number) => Promise<void> = async () => undefined,
): Promise<BatchDeletion> {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batch size must be a positive integer, got ${batchSize}`);
  let deleted = 0;
  let batches = 0;
  for (;;) {
    const started = performance.now();
    const count = await deleteBatch(batchSize);
    deleted += count;
    batches += 1;
    if (count < batchSize || shouldStop()) return { deleted, batches };
    await rest(performance.now() - started);
    if (shouldStop()) return { deleted, batches };
  }
}

/**
 * A rest for {@link deleteInBatches}: `ratio` times as long as the batch took. With 3, a drain
 * keeps its connection busy a quarter of the time, so the service's own statements and everyone
 * else's on a small machine keep the rest; a steady trickle of expired rows still fits in one
 * short batch per pass and never rests.
 */
export function restingFor(ratio: number, sleep: (ms: number) => Promise<void> = defaultSleep): (batchMs: number) => Promise<void> {
  return (batchMs) => sleep(Math.max(0, batchMs * ratio));
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
