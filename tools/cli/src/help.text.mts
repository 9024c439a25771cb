/**
 * `--help` text: the command list, a group's subcommands, and one command's usage.
 */
import type { CommandDefinition } from './command.types.mts';

const GLOBAL_HELP = [
  'global options:',
  '  --api URL        the api (default: $LONGHAUL_API_URL, else http://127.0.0.1:3000)',
  '  --api-key KEY    the API key, sent as Authorization: Bearer (default: $LONGHAUL_API_KEY;',
  '                   prefer the variable: a flag shows in the process list and shell history)',
  '  --json           print the result as one JSON document on stdout; progress stays on stderr',
  '  -h, --help       this help; for a command: longhaul <command> --help',
].join('\n');

const EXIT_CODES = [
  'exit codes:',
  '  0    ok',
  '  1    the api answered an error (401: no valid API key) or was unreachable, or a job waited for',
  '       failed or was cancelled',
  '  2    bad usage',
  '  130  interrupted',
].join('\n');

export function mainHelp(commands: readonly CommandDefinition[]): string {
  return [
    'usage: longhaul <command> [options]',
    '',
    'Submit and follow Longhaul jobs.',
    '',
    'commands:',
    commandList(commands),
    '',
    GLOBAL_HELP,
    '',
    EXIT_CODES,
    '',
  ].join('\n');
}

export function groupHelp(group: string, commands: readonly CommandDefinition[]): string {
  return [`usage: longhaul ${group} <subcommand> [options]`, '', 'subcommands:', commandList(commands), '', GLOBAL_HELP, ''].join('\n');
}

export function commandHelp(command: CommandDefinition): string {
  return [usageLine(command), '', `${capitalise(command.summary)}.`, '', command.help, '', GLOBAL_HELP, ''].join('\n');
}

function usageLine(command: CommandDefinition): string {
  const options = Object.keys(command.options).length > 0 ? ' [options]' : '';
  return `usage: longhaul ${[...command.words, ...command.operands].join(' ')}${options}`;
}

function commandList(commands: readonly CommandDefinition[]): string {
  const names = commands.map((command) => [...command.words, ...command.operands].join(' '));
  const width = Math.max(...names.map((name) => name.length));
  return commands.map((command, index) => `  ${(names[index] ?? '').padEnd(width)}  ${command.summary}`).join('\n');
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
