/**
 * Where the native Longhaul stack lives and how to reach it.
 *
 * Pure: reads only the environment it is given, touches no file and no port,
 * so test harnesses may import it to learn connection details
 * (`loadStackConfig().postgres.url`) without starting anything.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Every long-running process the stack supervises, in start order. */
export const COMPONENTS = ['postgres', 'kafka', 'connect', 'jaeger', 's3', 'mail'] as const;
export type ComponentName = (typeof COMPONENTS)[number];

/** Loopback only: nothing of the dev stack is reachable from outside the machine. */
export const STACK_HOST = '127.0.0.1';

/** One configurable TCP port: its env var, its default and what listens on it. */
export interface PortSetting {
  readonly key: PortKey;
  readonly envVar: string;
  readonly defaultPort: number;
  readonly purpose: string;
}

export type PortKey =
  | 'postgres'
  | 'kafka'
  | 'kafkaController'
  | 'connect'
  | 'jaegerUi'
  | 'jaegerQueryGrpc'
  | 'otlpGrpc'
  | 'otlpHttp'
  | 's3'
  | 's3Grpc'
  | 'seaweedMaster'
  | 'seaweedMasterGrpc'
  | 'seaweedVolume'
  | 'seaweedVolumeGrpc'
  | 'seaweedFiler'
  | 'seaweedFilerGrpc'
  | 'smtp'
  | 'mailpitUi';

export const PORT_SETTINGS: readonly PortSetting[] = [
  { key: 'postgres', envVar: 'LONGHAUL_PG_PORT', defaultPort: 5432, purpose: 'Postgres' },
  { key: 'kafka', envVar: 'LONGHAUL_KAFKA_PORT', defaultPort: 9092, purpose: 'Kafka broker' },
  { key: 'kafkaController', envVar: 'LONGHAUL_KAFKA_CONTROLLER_PORT', defaultPort: 9093, purpose: 'Kafka KRaft controller' },
  { key: 'connect', envVar: 'LONGHAUL_CONNECT_PORT', defaultPort: 8083, purpose: 'Kafka Connect REST' },
  { key: 'jaegerUi', envVar: 'LONGHAUL_JAEGER_UI_PORT', defaultPort: 16686, purpose: 'Jaeger UI and query API' },
  { key: 'jaegerQueryGrpc', envVar: 'LONGHAUL_JAEGER_QUERY_GRPC_PORT', defaultPort: 16685, purpose: 'Jaeger query gRPC' },
  { key: 'otlpGrpc', envVar: 'LONGHAUL_OTLP_GRPC_PORT', defaultPort: 4317, purpose: 'OTLP gRPC receiver (Jaeger)' },
  { key: 'otlpHttp', envVar: 'LONGHAUL_OTLP_HTTP_PORT', defaultPort: 4318, purpose: 'OTLP HTTP receiver (Jaeger)' },
  // SeaweedFS runs master, volume server, filer and S3 gateway in one process; each part has
  // an HTTP and a gRPC port. Fixed rather than SeaweedFS's port+10000 so that every one is checked.
  { key: 's3', envVar: 'LONGHAUL_S3_PORT', defaultPort: 8333, purpose: 'S3 API (SeaweedFS)' },
  { key: 's3Grpc', envVar: 'LONGHAUL_S3_GRPC_PORT', defaultPort: 18333, purpose: 'SeaweedFS S3 gateway gRPC' },
  { key: 'seaweedMaster', envVar: 'LONGHAUL_SEAWEED_MASTER_PORT', defaultPort: 9333, purpose: 'SeaweedFS master' },
  { key: 'seaweedMasterGrpc', envVar: 'LONGHAUL_SEAWEED_MASTER_GRPC_PORT', defaultPort: 19333, purpose: 'SeaweedFS master gRPC' },
  { key: 'seaweedVolume', envVar: 'LONGHAUL_SEAWEED_VOLUME_PORT', defaultPort: 8334, purpose: 'SeaweedFS volume server' },
  { key: 'seaweedVolumeGrpc', envVar: 'LONGHAUL_SEAWEED_VOLUME_GRPC_PORT', defaultPort: 18334, purpose: 'SeaweedFS volume server gRPC' },
  { key: 'seaweedFiler', envVar: 'LONGHAUL_SEAWEED_FILER_PORT', defaultPort: 8335, purpose: 'SeaweedFS filer' },
  { key: 'seaweedFilerGrpc', envVar: 'LONGHAUL_SEAWEED_FILER_GRPC_PORT', defaultPort: 18335, purpose: 'SeaweedFS filer gRPC' },
  { key: 'smtp', envVar: 'LONGHAUL_SMTP_PORT', defaultPort: 1025, purpose: 'SMTP (Mailpit)' },
  { key: 'mailpitUi', envVar: 'LONGHAUL_MAILPIT_UI_PORT', defaultPort: 8025, purpose: 'Mailpit HTTP API and UI' },
];

/** Which ports each component binds; checked before start. `status` shows the first. */
export const COMPONENT_PORTS: Readonly<Record<ComponentName, readonly PortKey[]>> = {
  postgres: ['postgres'],
  kafka: ['kafka', 'kafkaController'],
  connect: ['connect'],
  jaeger: ['jaegerUi', 'jaegerQueryGrpc', 'otlpGrpc', 'otlpHttp'],
  s3: ['s3', 's3Grpc', 'seaweedMaster', 'seaweedMasterGrpc', 'seaweedVolume', 'seaweedVolumeGrpc', 'seaweedFiler', 'seaweedFilerGrpc'],
  mail: ['smtp', 'mailpitUi'],
};

/** Folders under `$LONGHAUL_HOME`; everything downloaded, built or written at run time. */
export interface StackLayout {
  readonly home: string;
  readonly downloads: string;
  readonly jars: string;
  readonly bin: string;
  readonly build: string;
  readonly state: string;
  readonly logs: string;
  readonly pids: string;
}

export interface StackConfig {
  readonly host: string;
  readonly ports: Readonly<Record<PortKey, number>>;
  readonly layout: StackLayout;
  /** Checked-in repository folder with templates (`infra/`, `tools/infra/`). */
  readonly repoRoot: string;
  readonly postgres: {
    readonly user: string;
    readonly password: string;
    readonly database: string;
    /**
     * What clients on this machine connect with: the server's Unix socket (`?host=` names its
     * folder, as libpq and node-postgres read it). Cheaper per round trip than loopback TCP.
     */
    readonly url: string;
    /** The same database over TCP on the stack's loopback address (Debezium, other machines' tools). */
    readonly tcpUrl: string;
    /** The folder of the server's Unix socket (`.s.PGSQL.<port>`). */
    readonly socketDir: string;
  };
  readonly kafka: { readonly brokers: string };
  readonly connect: { readonly url: string };
  readonly jaeger: {
    readonly uiUrl: string;
    readonly otlpGrpcUrl: string;
    readonly otlpHttpUrl: string;
  };
  /** The S3 API (SeaweedFS), its one bucket and the identity from `identitiesFile`. */
  readonly s3: {
    readonly url: string;
    readonly region: string;
    readonly bucket: string;
    readonly accessKeyId: string;
    readonly secretAccessKey: string;
    readonly identitiesFile: string;
  };
  /** Mailpit: SMTP without TLS, any or no AUTH accepted; its HTTP API (and UI) at `apiUrl`. */
  readonly mail: {
    readonly host: string;
    readonly smtpPort: number;
    readonly smtpUrl: string;
    readonly apiUrl: string;
  };
  /** The one Debezium connector, its replication slot and publication. */
  readonly connector: {
    readonly name: string;
    readonly slot: string;
    readonly publication: string;
    readonly file: string;
  };
}

const PG_USER = 'longhaul';
const PG_PASSWORD = 'longhaul';
const PG_DATABASE = 'longhaul';
/** Must match infra/s3/s3.identities.json (the server's side) and libs/storage's S3_* defaults. */
const S3_ACCESS_KEY_ID = 'longhaul';
const S3_SECRET_ACCESS_KEY = 'longhaul-secret';

/** Repo root, found from this file's place: tools/infra/src/ → ../../.. */
export const REPO_ROOT = resolve(fileURLToPath(new URL('../../../', import.meta.url)));

/**
 * Where the Postgres server puts its Unix socket: beside its data folder, in the stack's own
 * state, never in /tmp or /var/run where another server's would collide with it.
 */
function postgresSocketDir(home: string): string {
  return join(home, 'state', 'postgres', 'run');
}

export function loadStackConfig(env: NodeJS.ProcessEnv = process.env): StackConfig {
  const ports = readPorts(env);
  const home = resolve(env['LONGHAUL_HOME'] || join(homedir(), '.cache', 'longhaul'));
  const host = STACK_HOST;
  return {
    host,
    ports,
    repoRoot: REPO_ROOT,
    layout: {
      home,
      downloads: join(home, 'downloads'),
      jars: join(home, 'jars'),
      bin: join(home, 'bin'),
      build: join(home, 'build'),
      state: join(home, 'state'),
      logs: join(home, 'logs'),
      pids: join(home, 'pids'),
    },
    postgres: {
      user: PG_USER,
      password: PG_PASSWORD,
      database: PG_DATABASE,
      url: `postgres://${PG_USER}:${PG_PASSWORD}@${host}:${ports.postgres}/${PG_DATABASE}?host=${encodeURIComponent(postgresSocketDir(home))}`,
      tcpUrl: `postgres://${PG_USER}:${PG_PASSWORD}@${host}:${ports.postgres}/${PG_DATABASE}`,
      socketDir: postgresSocketDir(home),
    },
    kafka: { brokers: `${host}:${ports.kafka}` },
    connect: { url: `http://${host}:${ports.connect}` },
    jaeger: {
      uiUrl: `http://${host}:${ports.jaegerUi}`,
      otlpGrpcUrl: `http://${host}:${ports.otlpGrpc}`,
      otlpHttpUrl: `http://${host}:${ports.otlpHttp}`,
    },
    s3: {
      url: `http://${host}:${ports.s3}`,
      region: 'us-east-1',
      bucket: 'longhaul',
      accessKeyId: S3_ACCESS_KEY_ID,
      secretAccessKey: S3_SECRET_ACCESS_KEY,
      identitiesFile: join(REPO_ROOT, 'infra', 's3', 's3.identities.json'),
    },
    mail: {
      host,
      smtpPort: ports.smtp,
      smtpUrl: `smtp://${host}:${ports.smtp}`,
      apiUrl: `http://${host}:${ports.mailpitUi}`,
    },
    connector: {
      name: 'longhaul-outbox',
      slot: 'longhaul_outbox',
      publication: 'longhaul_outbox',
      file: join(REPO_ROOT, 'infra', 'debezium', 'longhaul-outbox.connector.json'),
    },
  };
}

export function portSetting(key: PortKey): PortSetting {
  const setting = PORT_SETTINGS.find((candidate) => candidate.key === key);
  if (!setting) throw new Error(`unknown port key ${key}`);
  return setting;
}

function readPorts(env: NodeJS.ProcessEnv): Record<PortKey, number> {
  const ports = {} as Record<PortKey, number>;
  for (const setting of PORT_SETTINGS) {
    const raw = env[setting.envVar];
    const port = raw === undefined || raw === '' ? setting.defaultPort : Number(raw);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new Error(`${setting.envVar}=${raw} is not a TCP port (1-65535)`);
    }
    const clash = PORT_SETTINGS.find((other) => other.key !== setting.key && ports[other.key] === port);
    if (clash) throw new Error(`${setting.envVar} and ${clash.envVar} are both ${port}; every component needs its own port`);
    ports[setting.key] = port;
  }
  return ports;
}
