import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expiresAtOption } from './api-key-expiry.option.mts';
import { apiKeyPath } from './api-key.path.mts';
import { buildApiKeyRequest } from './api-key-request.builder.mts';
import { UsageError } from './cli.errors.mts';
import { COMMANDS } from './command.catalog.mts';
import { jobWindowOption } from './job-window.option.mts';
import { updateRequest } from './api-key-update.command.mts';
import { DEFAULT_API_URL, parseCommandLine } from './command-line.parser.mts';
import type { CommandLine } from './command-line.parser.mts';
import type { OptionValues } from './command.types.mts';
import { keyValueOption, listOption, positiveIntOption } from './option.readers.mts';

function parse(argv: string[], env: Record<string, string> = {}): CommandLine {
  return parseCommandLine(argv, COMMANDS, env);
}

function run(argv: string[], env: Record<string, string> = {}): Extract<CommandLine, { kind: 'run' }> {
  const line = parse(argv, env);
  assert.equal(line.kind, 'run');
  return line as Extract<CommandLine, { kind: 'run' }>;
}

function usageError(argv: string[], pattern: RegExp): void {
  assert.throws(() => parse(argv), (error: unknown) => error instanceof UsageError && error.exitCode === 2 && pattern.test(error.message));
}

describe('parseCommandLine', () => {
  it('finds one- and two-word commands with their operands and options', () => {
    const submit = run(['submit', 'clip.mp4', '--wait', '--renditions', '720p,360p', '--metadata', 'a=1', '--metadata', 'b=x=y']);
    assert.deepEqual(submit.command.words, ['submit']);
    assert.deepEqual(submit.input.operands, ['clip.mp4']);
    assert.equal(submit.input.values['wait'], true);
    assert.deepEqual(submit.input.values['metadata'], ['a=1', 'b=x=y']);

    const list = run(['dead-letters', 'list', '--error-code', 'step_timed_out', '--limit=5']);
    assert.deepEqual(list.command.words, ['dead-letters', 'list']);
    assert.deepEqual(list.input.operands, []);
    assert.equal(list.input.values['limit'], '5');

    assert.deepEqual(run(['dead-letters', 'replay', 'd1']).input.operands, ['d1']);

    const create = run(['api-keys', 'create', '--scopes', 'read,write', '--name', 'ci', '--rate-limit=5', '--expires-in', '90d']);
    assert.deepEqual(create.command.words, ['api-keys', 'create']);
    assert.deepEqual({ ...create.input.values }, { scopes: 'read,write', name: 'ci', 'rate-limit': '5', 'expires-in': '90d' });
    assert.deepEqual({ ...run(['api-keys', 'list', '--all', '--limit', '10']).input.values }, { all: true, limit: '10' });
  });

  it('takes global options anywhere on the line', () => {
    const before = run(['--api', 'http://api.test:8080/base', '--json', 'status', 'j1']);
    const after = run(['status', 'j1', '--json', '--api=http://api.test:8080/base']);
    for (const line of [before, after]) {
      assert.equal(line.json, true);
      assert.equal(line.apiUrl.href, 'http://api.test:8080/base');
      assert.deepEqual(line.input.operands, ['j1']);
    }
  });

  it('takes the api from --api, else LONGHAUL_API_URL, else the default', () => {
    const env = { LONGHAUL_API_URL: 'http://from-env:1234' };
    assert.equal(run(['status', 'j1', '--api', 'https://flag:1'], env).apiUrl.origin, 'https://flag:1');
    assert.equal(run(['status', 'j1'], env).apiUrl.origin, 'http://from-env:1234');
    assert.equal(run(['status', 'j1']).apiUrl.href, new URL(DEFAULT_API_URL).href);
    assert.throws(() => parse(['status', 'j1'], { LONGHAUL_API_URL: 'ftp://x' }), /LONGHAUL_API_URL must be an http or https URL/);
    usageError(['status', 'j1', '--api', 'not a url'], /--api must be an http or https URL/);
  });

  it('answers --help and help for the whole CLI, a group and a command', () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const line = parse(argv);
      assert.equal(line.kind, 'help');
      assert.match((line as { text: string }).text, /commands:\n {2}submit FILE\|URL/);
    }
    const submit = parse(['submit', '--help']) as { kind: string; text: string };
    assert.match(submit.text, /^usage: longhaul submit FILE\|URL \[options\]/);
    assert.match(submit.text, /--idempotency-key KEY/);
    assert.equal((parse(['help', 'jobs', 'list']) as { text: string }).text, (parse(['jobs', 'list', '-h']) as { text: string }).text);
    assert.match((parse(['dead-letters', '--help']) as { text: string }).text, /dead-letters replay ID/);
    assert.match((parse(['dlq-messages', '--help']) as { text: string }).text, /dlq-messages show ID .*\n.*dlq-messages replay ID .*\n.*dlq-messages delete ID /);
    assert.match((parse(['api-keys', '--help']) as { text: string }).text, /api-keys list .*\n.*api-keys show ID .*\n.*api-keys create .*\n.*api-keys update ID .*\n.*api-keys rotate ID .*\n.*api-keys revoke ID /);
    assert.match((parse(['api-keys', 'create', '--help']) as { text: string }).text, /--expires-in D .*30m, 12h, 90d\n/);
  });

  it('refuses what it does not understand, with exit code 2', () => {
    usageError([], /a command is needed/);
    usageError(['launch'], /unknown command "launch"/);
    usageError(['jobs'], /"jobs" needs a subcommand/);
    usageError(['jobs', 'delete'], /unknown subcommand "jobs delete"/);
    usageError(['status'], /status takes ID, got none/);
    usageError(['status', 'a', 'b'], /status takes ID, got "a" "b"/);
    usageError(['jobs', 'list', 'extra'], /jobs list takes no operands/);
    usageError(['status', 'j1', '--wait'], /Unknown option '--wait'/);
    usageError(['submit', 'clip.mp4', '--renditions'], /--renditions/);
    usageError(['api-keys', 'show'], /api-keys show takes ID, got none/);
    usageError(['api-keys', 'revoke', 'k1', '--all'], /Unknown option '--all'/);
    usageError(['api-keys', 'list', '--scopes', 'read'], /Unknown option '--scopes'/);
  });
});

describe('option readers', () => {
  const values = (entries: OptionValues): OptionValues => entries;

  it('reads lists, whole numbers and key=value pairs', () => {
    assert.deepEqual(listOption(values({ renditions: '720p, 360p' }), 'renditions'), ['720p', '360p']);
    assert.equal(positiveIntOption(values({ limit: '25' }), 'limit'), 25);
    assert.deepEqual(keyValueOption(values({ metadata: ['a=1', 'b=x=y', 'c='] }), 'metadata'), { a: '1', b: 'x=y', c: '' });
    assert.equal(listOption(values({}), 'renditions'), undefined);
  });

  it('refuses malformed values', () => {
    assert.throws(() => listOption(values({ renditions: '720p,,360p' }), 'renditions'), UsageError);
    for (const bad of ['0', '-1', '1.5', 'ten', '']) {
      assert.throws(() => positiveIntOption(values({ limit: bad }), 'limit'), UsageError, bad);
    }
    assert.throws(() => keyValueOption(values({ metadata: ['novalue'] }), 'metadata'), /key=value/);
    assert.throws(() => keyValueOption(values({ metadata: ['=x'] }), 'metadata'), /key=value/);
    assert.throws(() => keyValueOption(values({ metadata: ['a=1', 'a=2'] }), 'metadata'), /given twice/);
  });
});

describe('api-keys create options', () => {
  const NOW = Date.parse('2026-01-01T00:00:00.000Z');
  const request = (values: OptionValues) => buildApiKeyRequest(values, NOW);

  it('builds the body from the options, leaving out those not given', () => {
    assert.deepEqual(request({ scopes: 'read' }), { scopes: ['read'] });
    assert.deepEqual(request({ scopes: 'read, write', name: ' ci deploys ', 'rate-limit': '120', 'expires-in': '90d' }), {
      scopes: ['read', 'write'],
      name: ' ci deploys ',
      rateLimit: 120,
      expiresAt: '2026-04-01T00:00:00.000Z',
    });
    assert.deepEqual(request({ scopes: 'admin', 'expires-at': '2027-01-31T19:00:00+01:00' }), { scopes: ['admin'], expiresAt: '2027-01-31T18:00:00.000Z' });
    // The api's judgement, not the CLI's: a scope a newer api may know, a rate limit above the caller's.
    assert.deepEqual(request({ scopes: 'billing', 'rate-limit': '1000000000000' }), { scopes: ['billing'], rateLimit: 1_000_000_000_000 });
  });

  it('refuses a missing, empty or repeated scope, a blank name and a bad rate limit', () => {
    assert.throws(() => request({}), /api-keys create needs --scopes/);
    assert.throws(() => request({ scopes: 'read,,write' }), /comma-separated list without empty items/);
    assert.throws(() => request({ scopes: 'read,write,read' }), /--scopes names read twice/);
    assert.throws(() => request({ scopes: 'read', name: '   ' }), /--name needs a value that is not blank/);
    for (const bad of ['0', '-5', '2.5', 'lots']) assert.throws(() => request({ scopes: 'read', 'rate-limit': bad }), /--rate-limit must be a whole number/, bad);
  });

  it('turns --expires-in into a time from now, in minutes, hours or days, up to ten years', () => {
    const expiry = (text: string) => expiresAtOption({ 'expires-in': text }, NOW);
    assert.equal(expiry('30m'), '2026-01-01T00:30:00.000Z');
    assert.equal(expiry('12h'), '2026-01-01T12:00:00.000Z');
    assert.equal(expiry('3650d'), new Date(NOW + 3_650 * 86_400_000).toISOString());
    assert.equal(expiresAtOption({}, NOW), undefined, 'no expiry: the key works until revoked');
    for (const bad of ['3651d', '0d', '90', 'd', '1.5h', '90D', '1w', '-1d', '01d', '99999999m']) {
      assert.throws(() => expiry(bad), (error: unknown) => error instanceof UsageError && /--expires-in takes a whole number of minutes, hours or days/.test(error.message), bad);
    }
  });

  it('takes --expires-at as an RFC 3339 date and time with its offset, sent in UTC', () => {
    const expiry = (text: string) => expiresAtOption({ 'expires-at': text }, NOW);
    assert.equal(expiry('2027-01-31T18:00:00Z'), '2027-01-31T18:00:00.000Z');
    assert.equal(expiry('2027-01-31t18:00:00.25z'), '2027-01-31T18:00:00.250Z');
    assert.equal(expiry('2027-01-31T18:00:00-05:30'), '2027-01-31T23:30:00.000Z');
    assert.equal(expiry('2020-01-01T00:00:00Z'), '2020-01-01T00:00:00.000Z', 'in the past: the api says so, by its clock');
    for (const bad of ['2027-01-31', '2027-01-31T18:00:00', '2027-01-31T18:00Z', '2027-02-30T00:00:00Z', '2027-13-01T00:00:00Z', '2027-01-31T24:00:00Z', '2027-01-31 18:00:00Z', 'tomorrow']) {
      assert.throws(() => expiry(bad), /--expires-at takes a date and time with its offset/, bad);
    }
    assert.throws(() => expiresAtOption({ 'expires-in': '1d', 'expires-at': '2027-01-31T18:00:00Z' }, NOW), /give --expires-in or --expires-at, not both/);
  });
});

describe('jobWindowOption', () => {
  const NOW = Date.parse('2026-01-01T00:00:00.000Z');
  const window = (values: OptionValues) => jobWindowOption(values, NOW);

  it('turns how long ago into a moment, and takes a moment with its offset, both sent in UTC', () => {
    assert.deepEqual(window({}), { createdSince: undefined, createdBefore: undefined });
    assert.deepEqual(window({ since: '90m' }), { createdSince: '2025-12-31T22:30:00.000Z', createdBefore: undefined });
    assert.deepEqual(window({ since: '2d', before: '1d' }), { createdSince: '2025-12-30T00:00:00.000Z', createdBefore: '2025-12-31T00:00:00.000Z' });
    assert.deepEqual(window({ since: '2025-12-31T10:00:00+02:00', before: '12h' }), { createdSince: '2025-12-31T08:00:00.000Z', createdBefore: '2025-12-31T12:00:00.000Z' });
  });

  it('refuses what is neither, naming the option, and a window that ends before it starts', () => {
    for (const bad of ['yesterday', '2w', '0h', '3651d', '1.5h', '2025-12-31', '2025-12-31T10:00:00']) {
      assert.throws(() => window({ since: bad }), (error: unknown) => error instanceof UsageError && error.message === `--since takes how long ago (30m, 12h, 7d; at most 3650d) or a date and time with its offset (2026-12-06T09:00:00Z), not "${bad}"`, bad);
    }
    assert.throws(() => window({ before: 'soon' }), /--before takes how long ago/);
    assert.throws(() => window({ since: '1h', before: '2h' }), /--since \(2025-12-31T23:00:00.000Z\) must be earlier than --before \(2025-12-31T22:00:00.000Z\)/);
    assert.throws(() => window({ since: '1h', before: '1h' }), /must be earlier than --before/);
  });
});

describe('api-keys update options', () => {
  const NOW = Date.parse('2026-01-01T00:00:00.000Z');
  const body = (values: OptionValues) => updateRequest(values, NOW);

  it('sends what changes: a name or none, an expiry or none', () => {
    assert.deepEqual(body({ name: 'ci' }), { name: 'ci' });
    assert.deepEqual(body({ 'clear-name': true, never: true }), { name: null, expiresAt: null });
    assert.deepEqual(body({ 'expires-in': '30d' }), { expiresAt: '2026-01-31T00:00:00.000Z' });
    assert.deepEqual(body({ 'expires-at': '2027-01-31T19:00:00+01:00', name: 'x' }), { name: 'x', expiresAt: '2027-01-31T18:00:00.000Z' });
  });

  it('refuses nothing to change, both sides of a choice, and a blank name', () => {
    assert.throws(() => body({}), /api-keys update needs --name, --clear-name, --expires-in, --expires-at or --never/);
    assert.throws(() => body({ name: 'x', 'clear-name': true }), /give --name or --clear-name, not both/);
    assert.throws(() => body({ never: true, 'expires-in': '1d' }), /give --never or a new expiry, not both/);
    assert.throws(() => body({ name: '  ' }), /--name needs a value that is not blank/);
    assert.throws(() => body({ 'expires-in': '2y' }), /--expires-in takes a whole number/);
  });
});

describe('apiKeyPath', () => {
  const ID = '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b';

  it('takes a key id, a UUID', () => {
    assert.equal(apiKeyPath(ID), `/v1/api-keys/${ID}`);
    assert.equal(apiKeyPath(ID.toUpperCase(), '/revoke'), `/v1/api-keys/${ID.toUpperCase()}/revoke`);
  });

  it('refuses anything else as bad usage, and never quotes a pasted key', () => {
    assert.throws(() => apiKeyPath('abcdef012345'), (error: unknown) => error instanceof UsageError && /^"abcdef012345" is not an API key id: that is a UUID/.test(error.message));
    assert.throws(() => apiKeyPath(`${ID}x`), /is not an API key id/);
    const secret = 'S3cretS3cretS3cretS3cretS3cretS3cretS3cr';
    for (const [pasted, prefix] of [[`lh_abcdef012345_${secret}`, ', abcdef012345'], [`LH_${secret}`, '']] as const) {
      assert.throws(
        () => apiKeyPath(pasted),
        (error: unknown) =>
          error instanceof UsageError && !error.message.includes(secret) && error.message === `that is an API key itself, not its id: longhaul api-keys list shows the id beside the key's prefix${prefix}`,
      );
    }
  });
});
