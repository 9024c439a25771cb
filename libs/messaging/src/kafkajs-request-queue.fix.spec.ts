import { fixKafkajsRequestQueue } from './kafkajs-request-queue.fix';

/* kafkajs' own request queue class, with the fix applied, driven without a broker. */
interface Queue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
  destroy(): void;
}
type QueueClass = new (options: Record<string, unknown>) => Queue;

const logger = { debug: () => undefined, warn: () => undefined };

function queue(): Queue {
  fixKafkajsRequestQueue();
  const RequestQueue = require('kafkajs/src/network/requestQueue') as QueueClass;
  return new RequestQueue({ maxInFlightRequests: 1, requestTimeout: 30_000, enforceRequestTimeout: false, clientId: 'spec', broker: 'b:9092', logger });
}

describe('fixKafkajsRequestQueue', () => {
  it('arms no timer when nothing is held back, however often the queue is checked', () => {
    const q = queue();
    q.checkPendingRequests();
    q.scheduleCheckPendingRequests();
    expect(q.throttleCheckTimeoutId).toBeNull();
  });

  it('checks a held-back request again when the throttle ends, and then stops', async () => {
    const q = queue();
    const checks: number[] = [];
    const check = q.checkPendingRequests.bind(q);
    q.checkPendingRequests = () => {
      checks.push(Date.now());
      q.pending = [];
      check();
    };
    q.pending = [{}];
    q.throttledUntil = Date.now() + 30;
    q.scheduleCheckPendingRequests();
    expect(q.throttleCheckTimeoutId).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(checks).toHaveLength(1);
    expect(q.throttleCheckTimeoutId).toBeNull();
    q.destroy();
  });
});
