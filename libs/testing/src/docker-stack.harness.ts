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
    .withWaitStrategy('connector-init', Wait.forOneShotStartup())
    .withStartupTimeout(10 * 60 * 1000)
    .up();
  return {
    stack: {
      mode: 'docker',
      databaseUrl: 'postgres://longhaul:longhaul@127.0.0.1:5432/longhaul',
      kafkaBrokers: '127.0.0.1:9092',
      connectUrl: 'http://127.0.0.1:8083',
      otlpHttpUrl: 'http://127.0.0.1:4318',
      jaegerUrl: 'http://127.0.0.1:16686',
    },
    stop: async () => {
      await environment.down({ removeVolumes: true });
    },
  };
}
