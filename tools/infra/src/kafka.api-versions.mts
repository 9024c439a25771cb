/**
 * Kafka health probe: send an ApiVersions request and wait for the broker's answer.
 *
 * An open port alone is not enough (the socket server accepts before the
 * broker has caught up with the metadata log); a matching response is.
 * ApiVersions v0: request header v1 (api key 18, version 0, correlation id,
 * client id), empty body. Any response carrying our correlation id counts,
 * even UNSUPPORTED_VERSION: a broker that says so is up and answering.
 */
import { createConnection } from 'node:net';

const API_VERSIONS_KEY = 18;
const CORRELATION_ID = 0x4c48; // 'LH'
const CLIENT_ID = 'longhaul-infra';

export function brokerAnswers(host: string, port: number, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const socket = createConnection({ host, port });
    let received = Buffer.alloc(0);
    const done = (result: boolean): void => {
      socket.destroy();
      resolvePromise(result);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write(apiVersionsRequest()));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 8) return;
      done(received.readInt32BE(4) === CORRELATION_ID);
    });
  });
}

function apiVersionsRequest(): Buffer {
  const clientId = Buffer.from(CLIENT_ID, 'utf8');
  const body = Buffer.alloc(2 + 2 + 4 + 2 + clientId.length);
  body.writeInt16BE(API_VERSIONS_KEY, 0);
  body.writeInt16BE(0, 2);
  body.writeInt32BE(CORRELATION_ID, 4);
  body.writeInt16BE(clientId.length, 8);
  clientId.copy(body, 10);
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length, 0);
  return Buffer.concat([size, body]);
}
