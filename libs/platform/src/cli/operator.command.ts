import { parseArgs } from 'node:util';

/** A usage mistake: {@link runOperatorCommand} prints it with the usage text and exits 2. */
export class CommandUsageError extends Error {}

/** Options an operator command takes besides `--json` and `--help`, as `parseArgs` declares them. */
export type CommandOptions = Record<string, { type: 'string' | 'boolean'; default?: string | boolean }>;

/** What a parsed command line hands to the command's body. */
export interface ParsedCommand {
  command: string;
  /** The positional arguments after the command. */
  rest: string[];
  values: Record<string, string | boolean | undefined>;
  /** Writes `value` as JSON with `--json`, else `text`. */
  print(value: unknown, text: string): void;
}

/** One operator command: its usage text, its options and its body. */
export interface OperatorCommand {
  usage: string;
  options: CommandOptions;
  /** Returns the exit code; throws {@link CommandUsageError} for a usage mistake. */
  run(parsed: ParsedCommand): Promise<number>;
}

/**
 * Runs an operator command line (`npm run keys -- …`, `npm run dlq -- …`) the same way for every
 * command: `--help` prints the usage (exit 0), no command or a usage mistake prints what is wrong
 * and the usage (exit 2), `--json` makes results machine-readable. Returns the exit code; writes
 * results to `out` and problems to `err`.
 */
export async function runOperatorCommand(argv: string[], spec: OperatorCommand, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { ...spec.options, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
    });
  } catch (error) {
    err(`${(error as Error).message}\n\n${spec.usage}`);
    return 2;
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const [command, ...rest] = parsed.positionals;
  if (values['help'] || !command) {
    (values['help'] ? out : err)(spec.usage);
    return values['help'] ? 0 : 2;
  }
  const print = (value: unknown, text: string) => out(values['json'] ? JSON.stringify(value) : text);
  try {
    return await spec.run({ command, rest, values, print });
  } catch (error) {
    if (error instanceof CommandUsageError) {
      err(`${error.message}\n\n${spec.usage}`);
      return 2;
    }
    throw error;
  }
}
