/**
 * Jaeger v2 all-in-one: OTLP receivers, in-memory trace store, UI and query API,
 * configured by infra/jaeger/jaeger.config.yaml.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import type { Component } from './component.types.mts';
import { goToolBinary } from './go-tool.build.mts';
import { goToolComponent } from './go-tool.component.mts';
import { answersOk } from './http.probe.mts';
import { jaegerTool } from './jaeger.build.mts';
import type { StackConfig } from './stack.config.mts';

function configFile(config: StackConfig): string {
  return join(config.repoRoot, 'infra', 'jaeger', 'jaeger.config.yaml');
}

export const jaegerComponent: Component = {
  name: 'jaeger',
  dependsOn: [],
  startTimeoutMs: 60_000,
  stopSignal: 'SIGTERM',
  stopGraceMs: 15_000,

  ...goToolComponent(jaegerTool),

  async prepare(config) {
    const stateDir = join(config.layout.state, 'jaeger');
    mkdirSync(stateDir, { recursive: true });
    return {
      command: goToolBinary(config, jaegerTool),
      args: ['--config', configFile(config)],
      cwd: stateDir,
      env: {
        ...process.env,
        LONGHAUL_JAEGER_HOST: config.host,
        LONGHAUL_JAEGER_UI_PORT: String(config.ports.jaegerUi),
        LONGHAUL_JAEGER_QUERY_GRPC_PORT: String(config.ports.jaegerQueryGrpc),
        LONGHAUL_OTLP_GRPC_PORT: String(config.ports.otlpGrpc),
        LONGHAUL_OTLP_HTTP_PORT: String(config.ports.otlpHttp),
      },
    };
  },

  isHealthy: (config) => answersOk(`${config.jaeger.uiUrl}/api/services`),
};
