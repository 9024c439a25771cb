/**
 * Kafka 4.4 in KRaft mode: one process that is both broker and controller,
 * from Maven Central jars on the machine's Java 17.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { runToLog } from './command.runner.mts';
import type { Component } from './component.types.mts';
import { javaArgs, kafkaJars } from './java.launch.mts';
import { brokerAnswers } from './kafka.api-versions.mts';
import { resolveJars } from './maven.resolver.mts';
import { say } from './progress.output.mts';
import type { StackConfig } from './stack.config.mts';
import { renderTemplate } from './template.render.mts';
import { requireJava } from './toolchain.check.mts';

function stateDir(config: StackConfig): string {
  return join(config.layout.state, 'kafka');
}

function propertiesFile(config: StackConfig): string {
  return join(stateDir(config), 'server.properties');
}

export const kafkaComponent: Component = {
  name: 'kafka',
  dependsOn: [],
  startTimeoutMs: 120_000,
  stopSignal: 'SIGTERM',
  stopGraceMs: 30_000,

  marker: (config) => propertiesFile(config),

  async provision(config) {
    requireJava();
    await resolveJars('kafka', kafkaJars(config), config);
  },

  async prepare(config) {
    const java = requireJava();
    const dataDir = join(stateDir(config), 'data');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(
      propertiesFile(config),
      renderTemplate(join(config.repoRoot, 'infra', 'kafka', 'server.properties'), {
        LONGHAUL_KAFKA_PORT: config.ports.kafka,
        LONGHAUL_KAFKA_CONTROLLER_PORT: config.ports.kafkaController,
        LONGHAUL_KAFKA_DATA_DIR: dataDir,
      }),
    );
    // KRaft refuses to start on an unformatted log dir; format exactly once.
    if (!existsSync(join(dataDir, 'meta.properties'))) {
      const clusterId = newClusterId();
      say('kafka', `formatting KRaft storage (cluster id ${clusterId})`);
      await runToLog(java, javaArgs(config, kafkaJars(config), 'kafka.tools.StorageTool', ['format', '-t', clusterId, '-c', propertiesFile(config)], false), {
        component: 'kafka',
        cwd: stateDir(config),
        logFile: join(config.layout.logs, 'kafka.log'),
      });
    }
    return {
      command: java,
      args: javaArgs(config, kafkaJars(config), 'kafka.Kafka', [propertiesFile(config)], true),
      cwd: stateDir(config),
      env: process.env,
    };
  },

  isHealthy: (config) => brokerAnswers(config.host, config.ports.kafka),
};

/** Kafka's cluster id format: 16 random bytes, URL-safe base64 without padding, not starting with '-'. */
function newClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}
