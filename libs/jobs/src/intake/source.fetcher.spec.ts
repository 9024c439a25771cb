import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCodes } from '@longhaul/contracts';
import { SourceFetcher, type SourceFetcherOptions } from './source.fetcher';

// Every server here listens on 127.0.0.1; every other address a test names is refused before a
// connection is opened, so no traffic leaves the host.

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let base: string;
let connections = 0;
let handler: Handler;
let dir: string;
let fetchers: SourceFetcher[] = [];

beforeAll(async () => {
  server = createServer((req, res) => handler(req, res));
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(async () => {
  connections = 0;
  dir = await mkdtemp(join(tmpdir(), 'fetcher-spec-'));
  handler = (_req, res) => res.end('video bytes');
});

afterEach(async () => {
  await Promise.all(fetchers.map((f) => f.close()));
  fetchers = [];
  await rm(dir, { recursive: true, force: true });
});

function fetcher(options: Partial<SourceFetcherOptions> = {}): SourceFetcher {
  const created = new SourceFetcher({ maxBytes: 1_000_000, allowPrivateAddresses: true, ...options });
  fetchers.push(created);
  return created;
}

const dest = () => join(dir, 'source');

describe('SourceFetcher with private addresses allowed (SOURCE_ALLOW_PRIVATE_ADDRESSES)', () => {
  it('downloads the body to the file', async () => {
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'video/mp4' }).end('0123456789');
    const fetched = await fetcher().fetch(`${base}/clip.mp4`, dest());
    expect(fetched).toEqual({ finalUrl: `${base}/clip.mp4`, sizeBytes: 10, contentType: 'video/mp4' });
    expect(await readFile(dest(), 'utf8')).toBe('0123456789');
  });

  it('follows redirects, relative and absolute, up to the limit', async () => {
    handler = (req, res) => {
      const hop = Number(new URL(req.url!, base).searchParams.get('hop') ?? 0);
      if (hop < 3) return res.writeHead(hop % 2 ? 302 : 301, { location: hop % 2 ? `/r?hop=${hop + 1}` : `${base}/r?hop=${hop + 1}` }).end();
      res.end('arrived');
    };
    const fetched = await fetcher({ maxRedirects: 3 }).fetch(`${base}/r?hop=0`, dest());
    expect(fetched.finalUrl).toBe(`${base}/r?hop=3`);
    expect(await readFile(dest(), 'utf8')).toBe('arrived');
  });

  it('gives up after too many redirects', async () => {
    handler = (_req, res) => res.writeHead(302, { location: '/again' }).end();
    await expect(fetcher({ maxRedirects: 2 }).fetch(`${base}/loop`, dest())).rejects.toMatchObject({
      code: ErrorCodes.sourceUnreachable,
      message: expect.stringContaining('more than 2 redirects'),
    });
  });

  it.each(['file:///etc/passwd', 'ftp://files.example/clip.mp4', 'gopher://127.0.0.1/'])('refuses a redirect to %s', async (target) => {
    handler = (_req, res) => res.writeHead(307, { location: target }).end();
    await expect(fetcher().fetch(`${base}/r`, dest())).rejects.toMatchObject({ code: ErrorCodes.sourceInvalidScheme });
  });

  it('refuses a redirect to the cloud metadata address even with private addresses allowed, before connecting', async () => {
    handler = (_req, res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    await expect(fetcher().fetch(`${base}/r`, dest())).rejects.toMatchObject({ code: ErrorCodes.sourceAddressForbidden });
  });

  it('refuses a redirect to a host whose name resolves to a link-local address', async () => {
    handler = (_req, res) => res.writeHead(302, { location: 'http://metadata.test/' }).end();
    const resolve = async (host: string) => (host === 'metadata.test' ? [{ address: 'fe80::1', family: 6 }] : []);
    await expect(fetcher({ resolve }).fetch(`${base}/r`, dest())).rejects.toMatchObject({ code: ErrorCodes.sourceAddressForbidden });
  });

  it.each([404, 410, 500, 503])('names an HTTP %i answer as source_unreachable', async (status) => {
    handler = (_req, res) => res.writeHead(status).end('nope');
    const error = await fetcher().fetch(`${base}/missing.mp4`, dest()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCodes.sourceUnreachable, message: expect.stringContaining(`HTTP ${status}`), details: { sourceStatus: status } });
  });

  it('refuses a body whose Content-Length is over the limit without reading it', async () => {
    handler = (_req, res) => res.writeHead(200, { 'content-length': '5000' }).end(Buffer.alloc(5000));
    await expect(fetcher({ maxBytes: 1000 }).fetch(`${base}/big`, dest())).rejects.toMatchObject({ code: ErrorCodes.sourceTooLarge });
  });

  it('stops a chunked body at the limit', async () => {
    handler = (_req, res) => {
      res.writeHead(200);
      for (let i = 0; i < 20; i++) res.write(Buffer.alloc(100));
      res.end();
    };
    await expect(fetcher({ maxBytes: 1000 }).fetch(`${base}/big`, dest())).rejects.toMatchObject({ code: ErrorCodes.sourceTooLarge });
    expect(await fetcher({ maxBytes: 2000 }).fetch(`${base}/big`, join(dir, 'exact'))).toMatchObject({ sizeBytes: 2000 });
  });

  it('gives up when the whole download takes longer than its timeout', async () => {
    handler = (_req, res) => {
      res.writeHead(200);
      res.write('a little');
    };
    await expect(fetcher({ timeoutMs: 200 }).fetch(`${base}/slow`, dest())).rejects.toMatchObject({
      code: ErrorCodes.sourceUnreachable,
      message: expect.stringContaining('200 ms'),
      retryable: true,
    });
  });

  it('names a refused connection as source_unreachable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(fetcher().fetch(`http://127.0.0.1:${port}/`, dest())).rejects.toMatchObject({ code: ErrorCodes.sourceUnreachable });
  });
});

describe('SourceFetcher with the default rules', () => {
  it.each(['http://127.0.0.1:PORT/clip.mp4', 'http://[::1]:PORT/clip.mp4', 'http://[::ffff:127.0.0.1]:PORT/clip.mp4', 'http://localhost:PORT/clip.mp4', 'http://0.0.0.0:PORT/'])(
    'refuses %s and never connects',
    async (url) => {
      const port = new URL(base).port;
      await expect(fetcher({ allowPrivateAddresses: false }).fetch(url.replace('PORT', port), dest())).rejects.toMatchObject({
        code: ErrorCodes.sourceAddressForbidden,
      });
      expect(connections).toBe(0);
    },
  );

  it('checks the address the socket connects to, whatever the name said before (DNS rebinding)', async () => {
    let asked = 0;
    // A rebinding name: public on the first question (what a check before the request would
    // see), loopback afterwards. Only the answer the socket connects with counts, and it is refused.
    const resolve = async (_host: string) => (++asked === 1 ? [{ address: '93.184.215.14', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]);
    const guarded = fetcher({ allowPrivateAddresses: false, resolve });
    expect(await resolve('rebind.test')).toEqual([{ address: '93.184.215.14', family: 4 }]);
    await expect(guarded.fetch(`http://rebind.test:${new URL(base).port}/`, dest())).rejects.toMatchObject({ code: ErrorCodes.sourceAddressForbidden });
    expect(connections).toBe(0);
  });

  it('refuses a name with any private address among public ones', async () => {
    const resolve = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    await expect(fetcher({ allowPrivateAddresses: false, resolve }).fetch('http://mixed.test/', dest())).rejects.toMatchObject({
      code: ErrorCodes.sourceAddressForbidden,
    });
  });

  it.each(['ftp://files.example/clip.mp4', 'file:///etc/passwd', 'not a url', 'data:video/mp4;base64,AAAA'])('refuses %s by scheme', async (url) => {
    await expect(fetcher({ allowPrivateAddresses: false }).fetch(url, dest())).rejects.toMatchObject({ code: ErrorCodes.sourceInvalidScheme });
  });
});
