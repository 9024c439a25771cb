import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Where the services and tests find the stack. */
export interface StackInfo {
  databaseUrl: string;
  kafkaBrokers: string;
  connectUrl: string;
  otlpHttpUrl: string;
  jaegerUrl: string;
  /** Mailpit's SMTP server: plain SMTP (no TLS), any AUTH or none accepted. */
  smtpHost: string;
  smtpPort: number;
  /** Mailpit's HTTP API, for `MailpitClient`. */
  mailpitUrl: string;
  /** `native` (processes on this machine) or `docker` (testcontainers). */
  mode: 'native' | 'docker';
}

/** The workspace root (the folder holding nx.json). */
export function workspaceRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'nx.json'))) {
    const parent = join(dir, '..');
    if (parent === dir) throw new Error('workspace root not found');
    dir = parent;
  }
  return dir;
}

/** Runs the native stack CLI (`tools/infra`) with the workspace's Node. */
export function infraCli(args: string[], options: { inherit?: boolean } = {}): string {
  const root = workspaceRoot();
  const result = spawnSync(process.execPath, [join(root, 'tools/infra/src/cli.mts'), ...args], {
    cwd: root,
    encoding: 'utf8',
    stdio: options.inherit ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
    timeout: 30 * 60 * 1000,
  });
  if (result.status !== 0) {
    throw new Error(`infra ${args.join(' ')} failed (exit ${result.status}): ${result.stderr ?? ''}${result.stdout ?? ''}`);
  }
  return result.stdout ?? '';
}

/** True when a Docker engine answers (not just a Docker client being installed). */
export function dockerEngineReachable(): boolean {
  try {
    execFileSync('docker', ['info', '--format', '{{.ServerVersion}}'], { stdio: 'pipe', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

interface NativeStatus {
  postgres: { url: string; healthy: boolean };
  kafka: { brokers: string; healthy: boolean };
  connect: { url: string; healthy: boolean };
  jaeger: { uiUrl: string; otlpHttpUrl: string; healthy: boolean };
  mail: { host: string; smtpPort: number; apiUrl: string; healthy: boolean };
}

/** Reads where the native stack listens, without starting anything. */
export function nativeStackInfo(): StackInfo {
  const status = JSON.parse(infraCli(['status', '--json'])) as NativeStatus;
  return {
    mode: 'native',
    databaseUrl: status.postgres.url,
    kafkaBrokers: status.kafka.brokers,
    connectUrl: status.connect.url,
    otlpHttpUrl: status.jaeger.otlpHttpUrl,
    jaegerUrl: status.jaeger.uiUrl,
    smtpHost: status.mail.host,
    smtpPort: status.mail.smtpPort,
    mailpitUrl: status.mail.apiUrl,
  };
}

/**
 * Brings the native stack up (reusing whatever already runs) and says where it is. Postgres,
 * Kafka, Kafka Connect with the Debezium connector, Jaeger, SeaweedFS and Mailpit are real
 * processes.
 */
export function ensureNativeStack(): StackInfo {
  infraCli(['up'], { inherit: true });
  return nativeStackInfo();
}

/** Stops one native component by its PID (`postgres`, `kafka`, `connect`, `jaeger`, `s3`, `mail`). */
export function stopComponent(component: string): void {
  infraCli(['stop', component], { inherit: true });
}

/** Starts one native component again and waits until it is healthy. */
export function startComponent(component: string): void {
  infraCli(['start', component], { inherit: true });
}
