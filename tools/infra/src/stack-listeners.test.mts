/**
 * Every listener of the native stack, and every port docker-compose.yml publishes, is on
 * 127.0.0.1: nothing of the development stack (Kafka Connect's REST API, Jaeger, SeaweedFS's
 * master, Mailpit …) is reachable from outside the machine. Reads the configs as the infra
 * CLI renders them; starts nothing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

import { jaegerComponent } from './jaeger.component.mts';
import { mailComponent } from './mail.component.mts';
import { postgresServerArgs } from './postgres.component.mts';
import { s3Component } from './s3.component.mts';
import { loadStackConfig, REPO_ROOT, STACK_HOST } from './stack.config.mts';
import { renderTemplate } from './template.render.mts';

const LOOPBACK = '127.0.0.1';
const home = mkdtempSync(join(tmpdir(), 'longhaul-listeners-'));
// HOST is the services' variable; the stack must not take it (or anything else) as its address.
const config = loadStackConfig({ LONGHAUL_HOME: home, HOST: '0.0.0.0' });
after(() => rmSync(home, { recursive: true, force: true }));

/** `key=value` lines of a rendered properties file. */
function properties(text: string): Map<string, string> {
  const entries = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const);
  return new Map(entries);
}

/** The hosts of a Kafka listener list: `NAME://host:port,…`, `http://host:port` or `1@host:port`. */
function listenerHosts(value: string): string[] {
  return value.split(',').map((listener) => /^(?:[A-Za-z_]+:\/\/|\d+@)([^:/]*):\d+$/.exec(listener.trim())?.[1] ?? `unparsed: ${listener}`);
}

describe('native stack listeners', () => {
  it('has one address for everything, loopback, whatever the environment says', () => {
    assert.equal(STACK_HOST, LOOPBACK);
    assert.equal(config.host, LOOPBACK);
  });

  it("Postgres listens on loopback, and on a socket file in the stack's own state only", () => {
    const args = postgresServerArgs(config);
    assert.ok(args.includes(`listen_addresses=${LOOPBACK}`), args.join(' '));
    assert.equal(config.postgres.socketDir, join(home, 'state', 'postgres', 'run'));
    assert.deepEqual(args.filter((a) => a.startsWith('unix_socket_directories=')), [`unix_socket_directories=${config.postgres.socketDir}`]);
    // Clients on this machine take the socket; the TCP address stays for Debezium.
    assert.equal(new URL(config.postgres.url).searchParams.get('host'), config.postgres.socketDir);
    assert.equal(new URL(config.postgres.tcpUrl).hostname, LOOPBACK);
  });

  it('Kafka: broker and controller listeners, the advertised address and the quorum are loopback', () => {
    const props = properties(
      renderTemplate(join(REPO_ROOT, 'infra', 'kafka', 'server.properties'), {
        LONGHAUL_KAFKA_PORT: config.ports.kafka,
        LONGHAUL_KAFKA_CONTROLLER_PORT: config.ports.kafkaController,
        LONGHAUL_KAFKA_DATA_DIR: join(home, 'kafka'),
      }),
    );
    assert.deepEqual(listenerHosts(props.get('listeners') ?? ''), [LOOPBACK, LOOPBACK]);
    assert.deepEqual(listenerHosts(props.get('advertised.listeners') ?? ''), [LOOPBACK]);
    assert.deepEqual(listenerHosts(props.get('controller.quorum.voters') ?? ''), [LOOPBACK]);
  });

  it("Kafka Connect's REST API (admin endpoints included) listens and advertises on loopback", () => {
    const props = properties(
      renderTemplate(join(REPO_ROOT, 'infra', 'connect', 'worker.properties'), {
        LONGHAUL_KAFKA_PORT: config.ports.kafka,
        LONGHAUL_CONNECT_PORT: config.ports.connect,
        LONGHAUL_CONNECT_PLUGIN_PATH: join(home, 'plugins'),
      }),
    );
    assert.deepEqual(listenerHosts(props.get('listeners') ?? ''), [LOOPBACK]);
    assert.equal(props.get('rest.advertised.host.name'), LOOPBACK);
    // Without admin.listeners the admin endpoints share `listeners`; a separate one must be loopback too.
    const admin = props.get('admin.listeners');
    if (admin !== undefined && admin !== '') assert.deepEqual(new Set(listenerHosts(admin)), new Set([LOOPBACK]));
  });

  it('Jaeger: UI, query and OTLP endpoints all take the loopback host the CLI passes', async () => {
    const yaml = readFileSync(join(REPO_ROOT, 'infra', 'jaeger', 'jaeger.config.yaml'), 'utf8');
    const endpoints = [...yaml.matchAll(/^\s*endpoint:\s*"?([^"\n]+)"?\s*$/gm)].map((match) => match[1]!);
    assert.equal(endpoints.length, 4);
    for (const endpoint of endpoints) assert.match(endpoint, /^\$\{env:LONGHAUL_JAEGER_HOST:-127\.0\.0\.1\}:/);
    const plan = await jaegerComponent.prepare(config);
    assert.equal(plan.env?.['LONGHAUL_JAEGER_HOST'], LOOPBACK);
  });

  it('SeaweedFS: master, volume server, filer and S3 gateway bind and dial loopback', async () => {
    const plan = await s3Component.prepare(config);
    assert.ok(plan.args.includes(`-ip.bind=${LOOPBACK}`), plan.args.join(' '));
    assert.ok(plan.args.includes(`-ip=${LOOPBACK}`));
    assert.ok(!plan.args.some((arg) => arg.includes('0.0.0.0')));
  });

  it('Mailpit: SMTP and the HTTP API bind loopback', async () => {
    const plan = await mailComponent.prepare(config);
    assert.ok(plan.args.includes(`--smtp=${LOOPBACK}:${config.ports.smtp}`), plan.args.join(' '));
    assert.ok(plan.args.includes(`--listen=${LOOPBACK}:${config.ports.mailpitUi}`));
  });
});

describe('docker-compose.yml', () => {
  /** Each `ports:` entry of the file, quotes removed. */
  function publishedPorts(yaml: string): string[] {
    const published: string[] = [];
    let inPorts = false;
    for (const line of yaml.split('\n')) {
      if (/^\s+ports:\s*$/.test(line)) inPorts = true;
      else if (inPorts && /^\s+-\s/.test(line)) published.push(line.replace(/^\s+-\s*/, '').replace(/^["']|["']\s*$/g, ''));
      else inPorts = false;
    }
    return published;
  }

  it('publishes every port on 127.0.0.1 only', () => {
    const yaml = readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
    const ports = publishedPorts(yaml);
    assert.ok(ports.length >= 8, `found only ${ports.length} published ports`);
    for (const port of ports) assert.match(port, /^127\.0\.0\.1:\$\{LONGHAUL_[A-Z0-9_]+_PORT:-\d+\}:\d+$/);
    assert.doesNotMatch(yaml, /network_mode:\s*"?host/);
  });
});
