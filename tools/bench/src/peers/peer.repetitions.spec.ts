import type { BenchmarkContext } from '../benchmark';
import { PeerUnavailableError, type PeerAdapter } from './peer.adapter';
import { clientBoundParagraphs, runPeerRepetitions, troubleParagraphs, type PeerOutcome } from './peer.repetitions';

/** A peer that does nothing, and records what was asked of it. */
function fakePeer(name: string, calls: string[], options: { startError?: Error; errors?: string[] } = {}): PeerAdapter {
  return {
    name,
    settings: [`${name} settings`],
    errors: options.errors ?? [],
    start: async () => {
      calls.push(`${name} start`);
      if (options.startError) throw options.startError;
    },
    enqueue: async () => undefined,
    work: async () => undefined,
    stop: async () => void calls.push(`${name} stop`),
  };
}

const ctx: BenchmarkContext = { repetitions: 3, signal: new AbortController().signal, log: () => undefined };

describe('runPeerRepetitions', () => {
  it('goes round the peers once per repetition, each on a fresh adapter it starts and stops', async () => {
    const calls: string[] = [];
    const outcomes = await runPeerRepetitions(ctx, [{ name: 'a', create: () => fakePeer('a', calls) }, { name: 'b', create: () => fakePeer('b', calls) }], 2, async (peer, rep) => `${peer.name}${rep}`, 10_000);
    expect(outcomes.map((o) => o.reps)).toEqual([
      ['a1', 'a2'],
      ['b1', 'b2'],
    ]);
    expect(calls).toEqual(['a start', 'a stop', 'b start', 'b stop', 'a start', 'a stop', 'b start', 'b stop']);
    expect(outcomes[0]!.settings).toEqual(['a settings']);
  });

  it('skips an unavailable peer from then on, and keeps the others going past a failed repetition', async () => {
    const calls: string[] = [];
    let measured = 0;
    const outcomes = await runPeerRepetitions(
      ctx,
      [
        { name: 'gone', create: () => fakePeer('gone', calls, { startError: new PeerUnavailableError('no client library') }) },
        { name: 'flaky', create: () => fakePeer('flaky', calls, { errors: ['lost a connection'] }) },
      ],
      3,
      async () => {
        if (++measured === 2) throw new Error('timed out');
        return measured;
      },
      10_000,
    );
    const [gone, flaky] = outcomes;
    expect(gone!.unavailable).toBe('no client library');
    expect(calls.filter((c) => c === 'gone start')).toHaveLength(1);
    expect(flaky!.reps).toEqual([1, 3]);
    expect(flaky!.failures).toEqual(['rep 2: timed out']);
    expect(flaky!.libraryErrors).toHaveLength(3);
    const trouble = troubleParagraphs(outcomes).join('\n');
    expect(trouble).toContain('**gone was not measured**: no client library.');
    expect(trouble).toContain('rep 2: timed out');
    expect(trouble).toContain('`lost a connection`');
  });

  it('fails a repetition whose measurement outlives its bound, and still stops the peer', async () => {
    const calls: string[] = [];
    const outcomes = await runPeerRepetitions(
      ctx,
      [{ name: 'stuck', create: () => fakePeer('stuck', calls) }],
      1,
      // Ignores its signal and never resolves: only the outer bound ends it.
      () => new Promise<never>(() => undefined),
      1,
      { graceMs: 10 },
    );
    expect(outcomes[0]!.failures).toEqual(['rep 1: the measurement did not finish within 0 s']);
    expect(calls).toEqual(['stuck start', 'stuck stop']);
  });
});

describe('clientBoundParagraphs', () => {
  const outcome = (name: string, shares: number[]): PeerOutcome<number> => ({ name, reps: shares, failures: [], settings: [], libraryErrors: [] });

  it('names the peers whose median client CPU reached 80 % of a core', () => {
    const paragraphs = clientBoundParagraphs([outcome('fast', [0.95, 0.84, 0.5]), outcome('slow', [0.2, 0.9, 0.3]), outcome('none', [])], (r) => r);
    expect(paragraphs).toHaveLength(1);
    expect(paragraphs[0]).toContain('**fast**');
    expect(paragraphs[0]).toContain('84 %');
  });
});
