import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RelayConnectorClient } from './relay-connector.client';

/** A stand-in for Kafka Connect's REST API answering `status` and `body` to every request. */
async function connect(status: number, body: unknown, delayMs = 0): Promise<{ url: string; paths: string[]; close: () => Promise<void> }> {
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    paths.push(req.url ?? '');
    const timer = setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)), delayMs);
    res.once('close', () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const running = { name: 'longhaul-outbox', connector: { state: 'RUNNING' }, tasks: [{ id: 0, state: 'RUNNING' }] };

describe('RelayConnectorClient', () => {
  it("reads the connector's status and resolves while it runs", async () => {
    const server = await connect(200, running);
    await new RelayConnectorClient(server.url, 'longhaul-outbox').assertRunning();
    expect(server.paths).toEqual(['/connectors/longhaul-outbox/status']);
    await server.close();
  });

  it('rejects for a failed task, a connector not registered, and a Connect that does not answer', async () => {
    const failed = await connect(200, { ...running, tasks: [{ id: 0, state: 'FAILED', trace: 'boom' }] });
    await expect(new RelayConnectorClient(failed.url, 'longhaul-outbox').assertRunning()).rejects.toThrow('task 0 of longhaul-outbox is FAILED: boom');
    await failed.close();
    const missing = await connect(404, { error_code: 404 });
    await expect(new RelayConnectorClient(missing.url, 'longhaul-outbox').assertRunning()).rejects.toThrow('not registered');
    await missing.close();
    await expect(new RelayConnectorClient('http://127.0.0.1:9', 'longhaul-outbox').assertRunning()).rejects.toThrow('did not answer');
  });

  it('stops waiting when its signal aborts', async () => {
    const slow = await connect(200, running, 5_000);
    const started = Date.now();
    await expect(new RelayConnectorClient(slow.url, 'longhaul-outbox').assertRunning(AbortSignal.timeout(50))).rejects.toThrow('did not answer');
    expect(Date.now() - started).toBeLessThan(2_000);
    await slow.close();
  });
});
