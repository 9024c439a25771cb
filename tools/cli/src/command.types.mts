/**
 * What every command gets and gives back. Commands return their result rather than print it, and
 * `runCli` prints either the text or, with `--json`, the one JSON document, so that stdout
 * carries exactly one document per command. Only `events`, whose output is the stream itself,
 * writes to stdout as it goes (and returns neither). Progress and notices go to stderr.
 */
import type { ParseArgsOptionsConfig } from 'node:util';
import type { ApiClient } from './api.client.mts';
import type { DisplayStream } from './progress.display.mts';

/** The process's streams and environment, injectable so tests can run commands in-process. */
export interface CliIo {
  stdout: { write(chunk: string): unknown };
  stderr: DisplayStream;
  env: Readonly<Record<string, string | undefined>>;
  /** Aborts the command (Ctrl-C): it stops what it waits for and exits 130. */
  signal?: AbortSignal;
}

export interface CommandContext {
  client: ApiClient;
  /** `--json`: the result as one JSON document on stdout. */
  json: boolean;
  io: CliIo;
}

export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface CommandInput {
  operands: string[];
  values: OptionValues;
}

export interface CommandResult {
  exitCode: number;
  /** Printed with `--json`, as indented JSON. */
  document?: unknown;
  /** Printed otherwise; should end with a newline. */
  text?: string;
}

export interface CommandDefinition {
  /** `['submit']`, `['jobs', 'list']`. */
  words: readonly string[];
  /** Operand names for the usage line, in order; exactly this many are required. */
  operands: readonly string[];
  /** The command's own options, for `node:util` parseArgs (the global ones are added). */
  options: ParseArgsOptionsConfig;
  /** One line for the command list. */
  summary: string;
  /** The options and notes `--help` shows below the usage line. */
  help: string;
  run(context: CommandContext, input: CommandInput): Promise<CommandResult>;
}
