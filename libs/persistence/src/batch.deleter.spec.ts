import { deleteInBatches, restingFor } from './batch.deleter';

describe('deleteInBatches', () => {
  it('runs full batches until one comes back short', async () => {
    const backlog = [5, 5, 5, 2];
    const limits: number[] = [];
    const result = await deleteInBatches(async (limit) => {
      limits.push(limit);
      return backlog.shift() ?? 0;
    }, 5);
    expect(result).toEqual({ deleted: 17, batches: 4 });
    expect(limits).toEqual([5, 5, 5, 5]);
  });

  it('runs one statement when there is nothing to delete', async () => {
    const batch = jest.fn(async () => 0);
    expect(await deleteInBatches(batch, 100)).toEqual({ deleted: 0, batches: 1 });
    expect(batch).toHaveBeenCalledTimes(1);
  });

  it('stops between batches when asked, leaving the rest for later', async () => {
    let stop = false;
    const result = await deleteInBatches(async (limit) => {
      stop = true;
      return limit;
    }, 10, () => stop);
    expect(result).toEqual({ deleted: 10, batches: 1 });
  });

  it('rests after each full batch, for as long as the rest policy says, and not after the last', async () => {
    const backlog = [5, 5, 1];
    const events: string[] = [];
    const rests: number[] = [];
    await deleteInBatches(
      async () => {
        events.push('batch');
        await new Promise((resolve) => setTimeout(resolve, 20));
        return backlog.shift() ?? 0;
      },
      5,
      () => false,
      async (batchMs) => {
        events.push('rest');
        rests.push(batchMs);
      },
    );
    expect(events).toEqual(['batch', 'rest', 'batch', 'rest', 'batch']);
    // Each rest is told how long its batch took.
    expect(rests.every((ms) => ms >= 15)).toBe(true);
  });

  it('stops after a rest when asked during it', async () => {
    let stop = false;
    const batch = jest.fn(async (limit: number) => limit);
    const result = await deleteInBatches(batch, 10, () => stop, async () => {
      stop = true;
    });
    expect(result).toEqual({ deleted: 10, batches: 1 });
    expect(batch).toHaveBeenCalledTimes(1);
  });

  it('rests ratio times the batch', async () => {
    const slept: number[] = [];
    const rest = restingFor(3, async (ms) => {
      slept.push(ms);
    });
    await rest(40);
    await rest(-1);
    expect(slept).toEqual([120, 0]);
  });

  it('refuses a batch size that would never end or never delete', async () => {
    await expect(deleteInBatches(async () => 0, 0)).rejects.toThrow(RangeError);
  });

  it('lets a failing batch fail the drain, keeping what earlier batches deleted', async () => {
    const calls = [async () => 3, async () => Promise.reject(new Error('connection lost'))];
    await expect(deleteInBatches(() => calls.shift()!(), 3)).rejects.toThrow('connection lost');
  });
});
