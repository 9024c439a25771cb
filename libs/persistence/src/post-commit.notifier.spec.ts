import { PostCommitNotifier } from './post-commit.notifier';

interface Sent {
  channels: string[];
  payloads: string[];
}

function recorder(options: { failFirst?: boolean } = {}): { sent: Sent[]; query: (text: string, params: unknown[]) => Promise<unknown> } {
  const sent: Sent[] = [];
  let calls = 0;
  return {
    sent,
    query: async (_text, params) => {
      calls += 1;
      if (options.failFirst && calls === 1) throw new Error('database unreachable');
      sent.push({ channels: params[0] as string[], payloads: params[1] as string[] });
    },
  };
}

describe('PostCommitNotifier', () => {
  it('sends what one turn of the event loop queued in one statement', async () => {
    const { sent, query } = recorder();
    const notifier = new PostCommitNotifier(query);
    notifier.notify('feed', 'a:1');
    notifier.notify('feed', 'b:1');
    notifier.notify('other', 'c:2');
    expect(sent).toEqual([]);
    await notifier.flushed();
    expect(sent).toEqual([{ channels: ['feed', 'feed', 'other'], payloads: ['a:1', 'b:1', 'c:2'] }]);
  });

  it('sends what arrives during a send in the next statement, nothing twice', async () => {
    const sent: Sent[] = [];
    let release: () => void = () => undefined;
    const notifier = new PostCommitNotifier(async (_text, params) => {
      sent.push({ channels: params[0] as string[], payloads: params[1] as string[] });
      if (sent.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    notifier.notify('feed', 'a:1');
    await new Promise((resolve) => setImmediate(resolve));
    notifier.notify('feed', 'a:2');
    notifier.notify('feed', 'a:3');
    release();
    await notifier.flushed();
    expect(sent.map((s) => s.payloads)).toEqual([['a:1'], ['a:2', 'a:3']]);
  });

  it('drops a batch whose send failed, reports it, and goes on sending', async () => {
    const { sent, query } = recorder({ failFirst: true });
    const errors: unknown[] = [];
    const notifier = new PostCommitNotifier(query, (error) => errors.push(error));
    notifier.notify('feed', 'a:1');
    await notifier.flushed();
    notifier.notify('feed', 'a:2');
    await notifier.flushed();
    expect(errors).toHaveLength(1);
    expect(sent.map((s) => s.payloads)).toEqual([['a:2']]);
  });
});
