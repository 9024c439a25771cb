import type { StackInfo } from './stack.harness';
import { workspaceRoot } from './stack.harness';

/**
 * Brings the stack up with testcontainers from the repository's `docker-compose.yml` (the same
 * images and connector JSON as `docker compose up`). Used only where a Docker engine runs.
 * Returns the stack and a function that tears it down.
 */
export async function startDockerStack(): Promise<{ stack: StackInfo; stop: () => Promise<void> }> {
  const { DockerComposeEnvironment, Wait } = await import('testcontainers');
  const environment = await new DockerComposeEnvironment(workspaceRoot(), 'docker-compose.yml')
    .withWaitStrategy('connect-init', Wait.forOneShotStartup())
    .withStartupTimeout(10 * 60 * 1000)
    .up();
  // docker-compose.yml publishes the same ports as the native stack, overridable by the same variables.
  const port = (name: string, fallback: number) => process.env[name] ?? String(fallback);
  return {
    stack: {
      mode: 'docker',
      databaseUrl: `postgres://longhaul:longhaul@127.0.0.1:${port('LONGHAUL_PG_PORT', 5432)}/longhaul`,
      kafkaBrokers: `127.0.0.1:${port('LONGHAUL_KAFKA_PORT', 9092)}`,
      connectUrl: `http://127.0.0.1:${port('LONGHAUL_CONNECT_PORT', 8083)}`,
      otlpHttpUrl: `http://127.0.0.1:${port('LONGHAUL_OTLP_HTTP_PORT', 4318)}`,
      jaegerUrl: `http://127.0.0.1:${port('LONGHAUL_JAEGER_UI_PORT', 16686)}`,
      smtpHost: '127.0.0.1',
      smtpPort: Number(port('LONGHAUL_SMTP_PORT', 1025)),
      mailpitUrl: `http://127.0.0.1:${port('LONGHAUL_MAILPIT_UI_PORT', 8025)}`,
    },
    stop: async () => {
      await environment.down({ removeVolumes: true });
    },
  };
}
