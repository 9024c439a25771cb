/**
 * Reads `longhaul [global options] <command words> [operands] [options]` with `node:util`
 * parseArgs. Global options may stand anywhere on the line. Two passes: a lenient one over every
 * known option finds the command words; a strict one with just that command's options (and the
 * global ones) then refuses anything else, so `status --wait` is an error, not ignored.
 */
import { parseArgs } from 'node:util';
import type { ParseArgsOptionsConfig } from 'node:util';
import { chooseApiKey } from './api-key.option.mts';
import type { ApiKeyChoice } from './api-key.option.mts';
import { UsageError } from './cli.errors.mts';
import type { CommandDefinition, CommandInput } from './command.types.mts';
import { commandHelp, groupHelp, mainHelp } from './help.text.mts';
import { isHttpUrl } from './option.readers.mts';

/** Used when neither `--api` nor `LONGHAUL_API_URL` names the api: where `npx nx serve api` listens. */
export const DEFAULT_API_URL = 'http://127.0.0.1:3000';

export const GLOBAL_OPTIONS = {
  api: { type: 'string' },
  'api-key': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig;

export type CommandLine =
  | { kind: 'help'; text: string }
  | { kind: 'run'; command: CommandDefinition; input: CommandInput; json: boolean; apiUrl: URL; apiKey: ApiKeyChoice };

export function parseCommandLine(argv: readonly string[], commands: readonly CommandDefinition[], env: Readonly<Record<string, string | undefined>>): CommandLine {
  const everyOption: ParseArgsOptionsConfig = Object.assign({}, GLOBAL_OPTIONS, ...commands.map((command) => command.options));
  const lenient = parseArgs({ args: [...argv], options: everyOption, allowPositionals: true, strict: false });
  const words = lenient.positionals;
  const wantsHelp = lenient.values['help'] === true;

  if (words[0] === 'help') return { kind: 'help', text: helpFor(words.slice(1), commands) };
  const command = findCommand(words, commands);
  if (!command) {
    if (words.length === 0) {
      if (wantsHelp) return { kind: 'help', text: mainHelp(commands) };
      throw new UsageError(`a command is needed\n\n${mainHelp(commands)}`);
    }
    const group = commands.filter((candidate) => candidate.words.length > 1 && candidate.words[0] === words[0]);
    if (group.length > 0) {
      if (wantsHelp && words.length === 1) return { kind: 'help', text: groupHelp(words[0] ?? '', group) };
      const what = words[1] === undefined ? `"${words[0]}" needs a subcommand` : `unknown subcommand "${words[0]} ${words[1]}"`;
      throw new UsageError(`${what}\n\n${groupHelp(words[0] ?? '', group)}`);
    }
    throw new UsageError(`unknown command "${words[0]}"\n\n${mainHelp(commands)}`);
  }
  if (wantsHelp) return { kind: 'help', text: commandHelp(command) };

  let strict: ReturnType<typeof parseArgs>;
  try {
    strict = parseArgs({ args: [...argv], options: { ...GLOBAL_OPTIONS, ...command.options }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${commandHelp(command)}`);
  }
  const operands = strict.positionals.slice(command.words.length);
  if (operands.length !== command.operands.length) {
    const wanted = command.operands.length === 0 ? 'no operands' : command.operands.join(' ');
    throw new UsageError(`${command.words.join(' ')} takes ${wanted}, got ${operands.length === 0 ? 'none' : operands.map((operand) => `"${operand}"`).join(' ')}\n\n${commandHelp(command)}`);
  }
  return {
    kind: 'run',
    command,
    input: { operands, values: strict.values },
    json: strict.values['json'] === true,
    apiUrl: apiUrl(strict.values['api'], env),
    apiKey: chooseApiKey(strict.values['api-key'], env),
  };
}

/** The longest command whose words open the positionals. */
function findCommand(words: readonly string[], commands: readonly CommandDefinition[]): CommandDefinition | undefined {
  return commands
    .filter((command) => command.words.every((word, index) => words[index] === word))
    .sort((a, b) => b.words.length - a.words.length)[0];
}

function helpFor(words: readonly string[], commands: readonly CommandDefinition[]): string {
  const command = findCommand(words, commands);
  if (command) return commandHelp(command);
  const group = commands.filter((candidate) => candidate.words.length > 1 && candidate.words[0] === words[0]);
  if (words.length > 0 && group.length > 0) return groupHelp(words[0] ?? '', group);
  return mainHelp(commands);
}

function apiUrl(option: unknown, env: Readonly<Record<string, string | undefined>>): URL {
  const [value, from] =
    typeof option === 'string' ? [option, '--api'] : env['LONGHAUL_API_URL'] ? [env['LONGHAUL_API_URL'], 'LONGHAUL_API_URL'] : [DEFAULT_API_URL, 'the default'];
  if (!isHttpUrl(value)) throw new UsageError(`${from} must be an http or https URL, not "${value}"`);
  return new URL(value);
}
