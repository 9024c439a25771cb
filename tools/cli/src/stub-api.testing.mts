/**
 * Test helpers: a stand-in for the api on 127.0.0.1 (a `node:http` server on a free port that
 * records every request and answers through a handler the test gives), and a stream that
 * captures what the CLI writes. Not a test file itself (no `.test.` in the name).
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  bodyBytes: number;
}

export type StubHandler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export interface StubApi {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export interface StubOptions {
  /** Count request bodies but keep none (`body` stays empty), for uploads too large to hold. */
  discardBodies?: boolean;
}

export async function startStubApi(handle: StubHandler, options: StubOptions = {}): Promise<StubApi> {
  const requests: RecordedRequest[] = [];
  const server = createServer(async (incoming, response) => {
    const chunks: Buffer[] = [];
    let bodyBytes = 0;
    for await (const chunk of incoming) {
      bodyBytes += (chunk as Buffer).length;
      if (!options.discardBodies) chunks.push(chunk as Buffer);
    }
    const url = new URL(incoming.url ?? '/', 'http://stub');
    const request: RecordedRequest = {
      method: incoming.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: incoming.headers,
      body: Buffer.concat(chunks),
      bodyBytes,
    };
    requests.push(request);
    try {
      await handle(request, response);
    } catch (error) {
      if (!response.headersSent) sendJson(response, 500, { code: 'stub_failed', detail: String(error) });
      else response.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

export function sendProblem(response: ServerResponse, status: number, code: string, detail: string, extra: Record<string, unknown> = {}): void {
  response.writeHead(status, { 'content-type': 'application/problem+json' });
  response.end(JSON.stringify({ type: `https://longhaul.dev/problems/${code.replaceAll('_', '-')}`, title: 'Problem', status, code, detail, ...extra }));
}

/** Starts an event stream answer. */
export function openEventStream(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.flushHeaders();
}

/** One SSE frame: `id`, `event`, `data` (JSON-encoded unless a string), blank line. */
export function sseFrame(id: number | string, event: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** Writes `chunk`, then cuts the connection once it has been flushed: a dropped stream mid-way. */
export function writeThenDrop(response: ServerResponse, chunk: string): void {
  response.write(chunk, () => response.socket?.destroy());
}

/** Collects what is written to it; `isTTY` and `columns` as a terminal would report them. */
export class CapturedStream {
  text = '';
  isTTY: boolean | undefined;
  columns: number | undefined;

  constructor(options: { isTTY?: boolean; columns?: number } = {}) {
    this.isTTY = options.isTTY;
    this.columns = options.columns;
  }

  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}
