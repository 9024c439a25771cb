/**
 * `status`: one row per component (and the connector), as a table for people
 * or as JSON (`status --json`) for test harnesses.
 *
 * JSON shape, keyed by component:
 *   postgres  { url, host, port, pid, healthy, log }
 *   kafka     { brokers, port, controllerPort, pid, healthy, log }
 *   connect   { url, port, pid, healthy, log }
 *   jaeger    { uiUrl, otlpGrpcUrl, otlpHttpUrl, port, pid, healthy, log }
 *   s3        { url, region, bucket, accessKeyId, secretAccessKey, port, pid, healthy, log }
 *   mail      { host, smtpPort, smtpUrl, apiUrl, apiPort, port, pid, healthy, log }
 *   connector { name, state, tasks, healthy }
 * `port` is the component's main port (for mail the SMTP port). `pid` is null when the
 * component is not running under this $LONGHAUL_HOME.
 */
import type { ConnectorStatus } from './connector.registration.mts';
import { connectorStatus, isRunning } from './connector.registration.mts';
import { checkHealth, COMPONENT_BY_NAME, findPid, logFile } from './stack.orchestrator.mts';
import type { ComponentName, StackConfig } from './stack.config.mts';
import { COMPONENT_PORTS, COMPONENTS } from './stack.config.mts';

interface ComponentRow {
  readonly pid: number | null;
  readonly healthy: boolean;
  readonly port: number;
  readonly log: string;
}

export async function collectStatus(config: StackConfig): Promise<Record<string, unknown>> {
  const rows = {} as Record<ComponentName, ComponentRow>;
  await Promise.all(
    COMPONENTS.map(async (name) => {
      const component = COMPONENT_BY_NAME[name];
      rows[name] = {
        pid: findPid(config, component) ?? null,
        healthy: await checkHealth(config, component),
        port: config.ports[COMPONENT_PORTS[name][0]!],
        log: logFile(config, name),
      };
    }),
  );
  const connector: ConnectorStatus = rows.connect.healthy
    ? await connectorStatus(config).catch(() => ({ registered: false, tasks: [] }))
    : { registered: false, tasks: [] };
  return {
    home: config.layout.home,
    postgres: { url: config.postgres.url, host: config.host, ...rows.postgres },
    kafka: { brokers: config.kafka.brokers, controllerPort: config.ports.kafkaController, ...rows.kafka },
    connect: { url: config.connect.url, ...rows.connect },
    jaeger: {
      uiUrl: config.jaeger.uiUrl,
      otlpGrpcUrl: config.jaeger.otlpGrpcUrl,
      otlpHttpUrl: config.jaeger.otlpHttpUrl,
      ...rows.jaeger,
    },
    s3: {
      url: config.s3.url,
      region: config.s3.region,
      bucket: config.s3.bucket,
      accessKeyId: config.s3.accessKeyId,
      secretAccessKey: config.s3.secretAccessKey,
      ...rows.s3,
    },
    mail: {
      host: config.mail.host,
      smtpPort: config.mail.smtpPort,
      smtpUrl: config.mail.smtpUrl,
      apiUrl: config.mail.apiUrl,
      apiPort: config.ports.mailpitUi,
      ...rows.mail,
    },
    connector: {
      name: config.connector.name,
      state: connector.registered ? connector.state : 'UNREGISTERED',
      tasks: connector.tasks,
      healthy: isRunning(connector),
    },
  };
}

export function renderTable(status: Record<string, unknown>): string {
  const header = ['component', 'pid', 'port', 'healthy', 'log / state'];
  const lines: string[][] = [header];
  for (const name of COMPONENTS) {
    const row = status[name] as ComponentRow;
    lines.push([name, row.pid === null ? '-' : String(row.pid), String(row.port), row.healthy ? 'yes' : 'no', row.log]);
  }
  const connector = status['connector'] as { name: string; state: string; tasks: string[]; healthy: boolean };
  const tasks = connector.tasks.length ? ` (tasks: ${connector.tasks.join(', ')})` : '';
  lines.push(['connector', '-', '-', connector.healthy ? 'yes' : 'no', `${connector.name}: ${connector.state}${tasks}`]);
  const widths = header.map((_, column) => Math.max(...lines.map((line) => line[column]!.length)));
  return lines.map((line) => line.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n');
}
