import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from './cli.errors.mts';
import { COMMANDS } from './command.catalog.mts';
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
