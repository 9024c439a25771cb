import { FetchGatherer } from './fetch.gatherer';

describe('FetchGatherer', () => {
  it('handles the chunks offered in one turn together, in the order offered, and tells each', async () => {
    const joint: string[][] = [];
    const gatherer = new FetchGatherer<string>(async (items) => {
      joint.push([...items]);
      return true;
    });
    const outcomes = await Promise.all([gatherer.offer(['a1', 'a2']), gatherer.offer(['b1']), gatherer.offer(['c1'])]);
    expect(joint).toEqual([['a1', 'a2', 'b1', 'c1']]);
    expect(outcomes).toEqual([true, true, true]);
  });

  it('leaves a chunk offered alone to its caller, doing nothing with it', async () => {
    let calls = 0;
    const gatherer = new FetchGatherer<string>(async () => {
      calls += 1;
      return true;
    });
    expect(await gatherer.offer(['a1'])).toBe(false);
    expect(calls).toBe(0);
  });

  it('leaves every chunk to its caller when the joint handling failed or threw', async () => {
    const failing = new FetchGatherer<string>(async () => false);
    expect(await Promise.all([failing.offer(['a1']), failing.offer(['b1'])])).toEqual([false, false]);
    const throwing = new FetchGatherer<string>(async () => {
      throw new Error('database gone');
    });
    expect(await Promise.all([throwing.offer(['a1']), throwing.offer(['b1'])])).toEqual([false, false]);
  });

  it('gathers the chunks of a later turn apart from the earlier ones', async () => {
    const joint: string[][] = [];
    const gatherer = new FetchGatherer<string>(async (items) => {
      joint.push([...items]);
      return true;
    });
    await Promise.all([gatherer.offer(['a1']), gatherer.offer(['b1'])]);
    await Promise.all([gatherer.offer(['a2']), gatherer.offer(['b2'])]);
    expect(joint).toEqual([['a1', 'b1'], ['a2', 'b2']]);
  });
});
