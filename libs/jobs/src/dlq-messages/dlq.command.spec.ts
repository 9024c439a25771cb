import type { DlqMessageView } from '@longhaul/contracts';
import { runDlqCommand, type DlqMessages } from './dlq.command';

// Usage mistakes are caught before the database is opened: an opener that throws proves it.
const unopenable = (): Promise<DlqMessages> => Promise.reject(new Error('the database was opened'));

async function run(argv: string[], messages: () => Promise<DlqMessages> = unopenable) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runDlqCommand(argv, messages, (l) => out.push(l), (l) => err.push(l));
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const message = (id: string, change: Partial<DlqMessageView> = {}): DlqMessageView => ({
  id, dlqTopic: 'job.events.dlq', dlqPartition: 0, dlqOffset: id, sourceTopic: 'job.events', source: `job.events/0/${id}`,
  errorCode: 'handler_failed', errorMessage: 'boom', eventId: '0193a1b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b', eventType: 'StepCompleted.v1',
  key: 'j1', headers: {}, value: '{}', traceId: null, deadLetteredAt: '2026-12-06T00:00:00.000Z', recordedAt: '2026-12-06T00:00:01.000Z',
  replayedAt: null, notReplayable: null, ...change,
});

describe('dlq command', () => {
  it('prints its usage for --help (exit 0) and for no command (exit 2)', async () => {
    expect(await run(['--help'])).toMatchObject({ code: 0, out: expect.stringContaining('replay ID...') });
    expect(await run([])).toMatchObject({ code: 2, err: expect.stringContaining('Usage: dlq') });
  });

  it.each([
    [['show'], 'show needs exactly one message id'],
    [['show', '1', '2'], 'show needs exactly one message id'],
    [['replay'], 'replay needs at least one message id'],
    [['replay', '7', 'x7'], "'x7' is not a message id"],
    [['delete', '0'], "'0' is not a message id"],
    [['list', '--limit', '0'], '--limit takes'],
    [['list', '--topic', 'job events'], '--topic takes'],
    [['list', '--code', 'Handler-Failed'], '--code takes'],
    [['list', 'extra'], "unexpected argument 'extra'"],
    [['requeue'], "unknown command 'requeue'"],
    [['list', '--bogus'], "Unknown option '--bogus'"],
  ])('refuses %j with exit 2 and says what is wrong', async (argv, text) => {
    const result = await run(argv);
    expect(result.code).toBe(2);
    expect(result.err).toContain(text);
  });

  it('replays each id in turn and exits 1 when one could not be replayed', async () => {
    const asked: string[] = [];
    const messages: DlqMessages = {
      list: () => Promise.resolve([]),
      get: () => Promise.resolve(null),
      delete: () => Promise.resolve([]),
      replay: (id) => {
        asked.push(id);
        if (id === '1') return Promise.resolve({ outcome: 'replayed', message: message('1', { replayedAt: '2026-12-06T00:01:00.000Z' }) });
        if (id === '2') return Promise.resolve({ outcome: 'already-replayed', message: message('2', { replayedAt: '2026-12-06T00:00:30.000Z' }) });
        if (id === '3') return Promise.resolve({ outcome: 'not-replayable', message: message('3', { notReplayable: 'no key' }) });
        return Promise.resolve({ outcome: 'not-found', id });
      },
    };
    const all = await run(['replay', '1', '2', '3', '4'], () => Promise.resolve(messages));
    expect(asked).toEqual(['1', '2', '3', '4']);
    expect(all.code).toBe(1);
    expect(all.out.split('\n')).toEqual([
      '1  replayed to job.events (event 0193a1b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b)',
      '2  already replayed 2026-12-06T00:00:30.000Z; not sent again',
      '3  not replayable: no key',
      '4  no such message',
    ]);
    expect((await run(['replay', '1', '2'], () => Promise.resolve(messages))).code).toBe(0);
  });
});
