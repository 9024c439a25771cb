/**
 * Kafka Connect (4.3: see tools/infra/maven/connect.pom.xml), one distributed worker, with the Debezium 3.6 Postgres
 * connector as an isolated plugin. It hosts the `longhaul-outbox` connector
 * (see connector.registration.mts), which relays every `<schema>.outbox` to Kafka.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { Component } from './component.types.mts';
import { connectJars, javaArgs } from './java.launch.mts';
import type { JarSet } from './maven.resolver.mts';
import { resolveJars } from './maven.resolver.mts';
import type { StackConfig } from './stack.config.mts';
import { renderTemplate } from './template.render.mts';
import { requireJava } from './toolchain.check.mts';

export const POSTGRES_CONNECTOR_CLASS = 'io.debezium.connector.postgresql.PostgresConnector';

function pluginPath(config: StackConfig): string {
  return join(config.layout.jars, 'connect-plugins');
}

function debeziumJars(config: StackConfig): JarSet {
  return { name: 'debezium-postgres', pom: 'debezium-postgres.pom.xml', outputDir: join(pluginPath(config), 'debezium-postgres') };
}

function stateDir(config: StackConfig): string {
  return join(config.layout.state, 'connect');
}

function workerFile(config: StackConfig): string {
  return join(stateDir(config), 'worker.properties');
}

/** What the connector JSON's ${env:LONGHAUL_PG_*} references resolve to inside the worker. */
function connectorEnv(config: StackConfig): NodeJS.ProcessEnv {
  return {
    LONGHAUL_PG_HOST: config.host,
    LONGHAUL_PG_PORT: String(config.ports.postgres),
    LONGHAUL_PG_USER: config.postgres.user,
    LONGHAUL_PG_PASSWORD: config.postgres.password,
    LONGHAUL_PG_DATABASE: config.postgres.database,
  };
}

export const connectComponent: Component = {
  name: 'connect',
  dependsOn: ['kafka'],
  startTimeoutMs: 180_000,
  stopSignal: 'SIGTERM',
  stopGraceMs: 30_000,

  marker: (config) => workerFile(config),

  async provision(config) {
    requireJava();
    await resolveJars('connect', connectJars(config), config);
    await resolveJars('connect', debeziumJars(config), config);
  },

  async prepare(config) {
    mkdirSync(stateDir(config), { recursive: true });
    writeFileSync(
      workerFile(config),
      renderTemplate(join(config.repoRoot, 'infra', 'connect', 'worker.properties'), {
        LONGHAUL_KAFKA_PORT: config.ports.kafka,
        LONGHAUL_CONNECT_PORT: config.ports.connect,
        LONGHAUL_CONNECT_PLUGIN_PATH: pluginPath(config),
      }),
    );
    return {
      command: requireJava(),
      args: javaArgs(config, connectJars(config), 'org.apache.kafka.connect.cli.ConnectDistributed', [workerFile(config)], true),
      cwd: stateDir(config),
      env: { ...process.env, ...connectorEnv(config) },
    };
  },

  async isHealthy(config) {
    const root = await fetch(`${config.connect.url}/`, { signal: AbortSignal.timeout(2_000) });
    if (!root.ok) return false;
    const plugins = await fetch(`${config.connect.url}/connector-plugins`, { signal: AbortSignal.timeout(2_000) });
    if (!plugins.ok) return false;
    const list = (await plugins.json()) as { class: string }[];
    return list.some((plugin) => plugin.class === POSTGRES_CONNECTOR_CLASS);
  },
};
