// The part of autocannon 9's programmatic API the benchmarks use (the package ships no types).
// See node_modules/autocannon/README.md, "API".
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      /** @defaultValue 10 */
      connections?: number;
      /** Seconds. @defaultValue 10 */
      duration?: number;
      /** Requests to make in all; overrides `duration`. */
      amount?: number;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      /** Seconds before a request counts as a timeout. @defaultValue 10 */
      timeout?: number;
      /** Called with each connection's client before it sends anything. */
      setupClient?: (client: Client) => void;
      /** Leave non-2xx answers out of the latency histogram. @defaultValue false */
      excludeErrorStats?: boolean;
      /** Requests per second over all connections; unlimited by default. */
      overallRate?: number;
    }

    /** One connection. */
    interface Client extends EventEmitter {
      /** `headers`: `{ statusCode, headers: [name, value, name, value, …] }` as the parser saw them. */
      on(event: 'headers', listener: (info: { statusCode: number; headers: string[] }) => void): this;
      /** `response`: status, response bytes and the time from request to response in ms. */
      on(event: 'response', listener: (statusCode: number, resBytes: number, responseTime: number) => void): this;
      on(event: 'request', listener: () => void): this;
    }

    interface Histogram {
      average: number;
      min: number;
      max: number;
      p50: number;
      p99: number;
    }

    interface Result {
      /** Seconds the run took. */
      duration: number;
      /** Connection errors, timeouts included. */
      errors: number;
      timeouts: number;
      non2xx: number;
      /** Answers per status code, e.g. `{ "202": { count: 500 } }`. */
      statusCodeStats: Record<string, { count: number }>;
      latency: Histogram;
      requests: Histogram;
      start: Date;
      finish: Date;
    }

    /** A running benchmark: an emitter that is also a promise of its result. */
    interface Instance extends EventEmitter, PromiseLike<Result> {
      /** Ends the run early; the result still comes. */
      stop(): void;
      on(event: 'response', listener: (client: Client, statusCode: number, resBytes: number, responseTime: number) => void): this;
      on(event: 'reqError', listener: (error: Error) => void): this;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
