import type { FeedSink } from './job-feed.subscriber';

/** What {@link writableFeedSink} needs of a response: Node's `ServerResponse` has it. */
export interface WritableResponse {
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
  write(chunk: string): boolean;
  end(): unknown;
  once(event: 'drain' | 'close', listener: () => void): unknown;
  off(event: 'drain' | 'close', listener: () => void): unknown;
}

/**
 * A feed sink over an HTTP response. Each frame is written as it comes (nothing buffers it on
 * our side); when the socket's buffer is full, `send` waits for `drain`, so a slow client slows
 * its own reads instead of growing the api's memory. A closed response swallows writes.
 */
export function writableFeedSink(response: WritableResponse): FeedSink {
  return {
    send: (chunk) =>
      new Promise<void>((resolve) => {
        if (response.destroyed || response.writableEnded) return resolve();
        if (response.write(chunk)) return resolve();
        const done = () => {
          response.off('drain', done);
          response.off('close', done);
          resolve();
        };
        response.once('drain', done);
        response.once('close', done);
      }),
    end: () => {
      if (!response.destroyed && !response.writableEnded) response.end();
    },
  };
}
