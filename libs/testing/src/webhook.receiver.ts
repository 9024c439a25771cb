import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a {@link WebhookReceiver} got. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Epoch ms when the request arrived and when it was answered (or dropped); null while open. */
  arrivedAt: number;
  closedAt: number | null;
}

/**
 * What a path answers, given how many requests it had before this one (0 for the first):
 * a status (with optional headers), or `'hang'` to never answer (the socket stays open until
 * the receiver closes).
 */
export type ReceiverScript = (before: number, request: ReceivedWebhook) => number | { status: number; headers?: Record<string, string> } | 'hang';

/**
 * A webhook receiver for tests: a real HTTP server on 127.0.0.1 that records every request and
 * answers as scripted per path prefix (204 when no script matches).
 */
export class WebhookReceiver {
  readonly requests: ReceivedWebhook[] = [];
  private readonly scripts = new Map<string, ReceiverScript>();
  private readonly hanging = new Set<ServerResponse>();
  private server: Server | null = null;

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  /** `http://127.0.0.1:<port>` */
  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  /** Answers requests whose path starts with `prefix` as `script` says. */
  script(prefix: string, script: ReceiverScript): void {
    this.scripts.set(prefix, script);
  }

  /** The requests to paths starting with `prefix`, in arrival order. */
  to(prefix: string): ReceivedWebhook[] {
    return this.requests.filter((r) => r.path.startsWith(prefix));
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const received: ReceivedWebhook = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), arrivedAt: Date.now(), closedAt: null };
    const prefix = [...this.scripts.keys()].filter((p) => received.path.startsWith(p)).sort((a, b) => b.length - a.length)[0];
    const before = prefix ? this.to(prefix).length : 0;
    this.requests.push(received);
    res.on('close', () => (received.closedAt = Date.now()));
    const answer = prefix ? this.scripts.get(prefix)!(before, received) : 204;
    if (answer === 'hang') {
      this.hanging.add(res);
      return;
    }
    const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
    res.writeHead(status, headers).end();
  }
}
