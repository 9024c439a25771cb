import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { classifyAddress, isAddressAllowed, type AddressKind, type AddressRules } from './address.policy';

/** Resolves a host name to every address it has (`dns.lookup` with `all: true` by default). */
export type HostResolver = (hostname: string, family: number) => Promise<LookupAddress[]>;

/** Options of {@link createGuardedAgent}. */
export interface GuardedAgentOptions extends AddressRules {
  /** Time allowed to open a connection. @defaultValue 10000 */
  connectTimeoutMs?: number;
  /** Replaces DNS (tests). @defaultValue the system resolver, as `dns.lookup` */
  resolve?: HostResolver;
  /** The error a refused connection fails with, in the caller's terms. @defaultValue {@link AddressForbiddenError} */
  refuse?: (host: string, address: string, kind: AddressKind) => Error;
}

/** A connection refused by {@link createGuardedAgent}: `host` resolved to `address`, of a kind not allowed. */
export class AddressForbiddenError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly kind: AddressKind,
  ) {
    super(`${host} resolves to ${address}, a ${kind} address; only public addresses are allowed`);
    this.name = 'AddressForbiddenError';
  }
}

export const systemResolve: HostResolver = (hostname, family) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, family, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * An undici `Agent` that refuses, AT CONNECT TIME, every address Longhaul may not reach out to
 * ({@link isAddressAllowed}): the address a socket is about to connect to is the one that is
 * checked, so a name that resolves to a public address when validated and to 127.0.0.1 when
 * connecting (DNS rebinding) cannot slip through. Two paths lead to a socket:
 * - a host name: Node asks the connector's `lookup`, which resolves it and fails the connection
 *   when ANY of its addresses is refused (a name that mixes public and private addresses is
 *   not trusted to pick the public one);
 * - an IP literal (`http://10.0.0.1/`, `http://[::1]/`): Node skips `lookup` for those, so the
 *   connector checks the literal itself before connecting.
 * A refusal fails the request with `refuse`'s error; no byte is sent. Used for source URLs (the
 * api) and webhook receivers (the notifier).
 */
export function createGuardedAgent(options: GuardedAgentOptions = {}): Agent {
  const rules: AddressRules = { allowPrivate: options.allowPrivate ?? false };
  const resolve = options.resolve ?? systemResolve;
  const refuse = options.refuse ?? ((host: string, address: string, kind: AddressKind) => new AddressForbiddenError(host, address, kind));
  const lookup = (hostname: string, lookupOptions: { family?: number | string; all?: boolean }, callback: LookupCallback) => {
    const family = lookupOptions.family === 'IPv4' ? 4 : lookupOptions.family === 'IPv6' ? 6 : Number(lookupOptions.family ?? 0);
    resolve(hostname, family).then(
      (addresses) => {
        const refused = addresses.find((entry) => !isAddressAllowed(entry.address, rules));
        if (refused) return callback(refuse(hostname, refused.address, classifyAddress(refused.address)), '');
        if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        if (lookupOptions.all) return callback(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: Error) => callback(error, ''),
    );
  };
  const connectTimeout = options.connectTimeoutMs ?? 10_000;
  const connectSocket = buildConnector({ timeout: connectTimeout, lookup } as buildConnector.BuildOptions);
  const connect: buildConnector.connector = (target, callback) => {
    if (isIP(target.hostname) !== 0 && !isAddressAllowed(target.hostname, rules)) {
      callback(refuse(target.hostname, target.hostname, classifyAddress(target.hostname)), null);
      return;
    }
    connectSocket(target, callback);
  };
  return new Agent({ connect, connectTimeout });
}
