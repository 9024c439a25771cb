import { EventEmitter } from 'node:events';
import { writableFeedSink, type WritableResponse } from './job-feed.sink';

/** A response whose socket buffer fills after `room` writes. */
class FakeResponse extends EventEmitter implements WritableResponse {
  destroyed = false;
  writableEnded = false;
  chunks: string[] = [];

  constructor(private room: number) {
    super();
  }

  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return --this.room > 0;
  }

  end(): void {
    this.writableEnded = true;
  }
}

describe('writableFeedSink', () => {
  it('writes each chunk at once and waits for drain when the buffer is full', async () => {
    const response = new FakeResponse(1);
    const sink = writableFeedSink(response);
    let sent = false;
    const sending = sink.send('a').then(() => (sent = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(response.chunks).toEqual(['a']);
    expect(sent).toBe(false);
    response.emit('drain');
    await sending;
    expect(response.listenerCount('drain') + response.listenerCount('close')).toBe(0);
  });

  it('stops waiting when the client goes away, and swallows later writes', async () => {
    const response = new FakeResponse(0);
    const sink = writableFeedSink(response);
    const sending = sink.send('a');
    response.destroyed = true;
    response.emit('close');
    await sending;
    await sink.send('b');
    sink.end();
    expect(response.chunks).toEqual(['a']);
    expect(response.writableEnded).toBe(false);
  });

  it('ends the response once', () => {
    const response = new FakeResponse(10);
    const sink = writableFeedSink(response);
    sink.end();
    sink.end();
    expect(response.writableEnded).toBe(true);
  });
});
