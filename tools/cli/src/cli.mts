/**
 * The `longhaul` CLI. `runCli` runs one command line in-process against injected streams and
 * returns the exit code, so tests call it directly; `main` wires it to the process
 * (`bin/longhaul.mjs`). Results go to stdout (text, or exactly one JSON document with
 * `--json`); progress, notices and errors go to stderr.
 */
import { ApiClient } from './api.client.mts';
import { redactApiKey, unauthenticatedHint } from './api-key.option.mts';
import type { ApiKeyChoice } from './api-key.option.mts';
import { ApiError, CliError, ExitCodes, isAbort, UsageError } from './cli.errors.mts';
import { COMMANDS } from './command.catalog.mts';
import { parseCommandLine } from './command-line.parser.mts';
import type { CliIo } from './command.types.mts';

export type { CliIo } from './command.types.mts';

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const stdout = new TrackedOutput(io.stdout);
  // Known before parsing, so a usage error is reported as JSON when --json was asked for.
  let json = argv.includes('--json');
  let apiKey: ApiKeyChoice = { key: undefined, source: undefined };
  try {
    const line = parseCommandLine(argv, COMMANDS, io.env);
    if (line.kind === 'help') {
      stdout.write(line.text);
      return ExitCodes.ok;
    }
    json = line.json;
    apiKey = line.apiKey;
    const client = new ApiClient(line.apiUrl, { signal: io.signal, apiKey: apiKey.key });
    const context = { client, json, io: { ...io, stdout } };
    const result = await line.command.run(context, line.input);
    if (json && result.document !== undefined) stdout.write(`${JSON.stringify(result.document, null, 2)}\n`);
    if (!json && result.text) stdout.write(result.text);
    return result.exitCode;
  } catch (error) {
    return reportError(error, json, apiKey, stdout, io);
  }
}

/**
 * Prints `error` on stderr (and with --json, as the document on stdout if none was printed) and
 * picks the exit code. A `401` also says what to do about the API key; the key itself is never
 * printed, even should an error quote it.
 */
function reportError(error: unknown, json: boolean, apiKey: ApiKeyChoice, stdout: TrackedOutput, io: CliIo): number {
  const stderr = { write: (text: string) => io.stderr.write(redactApiKey(text, apiKey.key)) };
  let cliError: CliError;
  if (isAbort(error) || io.signal?.aborted) cliError = new CliError('interrupted', 'interrupted', ExitCodes.interrupted);
  else if (error instanceof CliError) cliError = error;
  else cliError = new CliError('internal', error instanceof Error ? (error.stack ?? error.message) : String(error));

  const hint = cliError instanceof ApiError && cliError.status === 401 ? unauthenticatedHint(apiKey.source) : undefined;
  if (cliError instanceof UsageError) {
    stderr.write(`longhaul: ${cliError.message}\n`);
  } else if (cliError instanceof ApiError) {
    stderr.write(`error: ${cliError.code}: ${cliError.message} (HTTP ${cliError.status})\n`);
    for (const invalid of cliError.problem.errors ?? []) stderr.write(`  ${invalid.field}: ${invalid.message}\n`);
    if (cliError.problem.retryAfterSeconds !== undefined) stderr.write(`  retry after ${cliError.problem.retryAfterSeconds} s\n`);
    if (hint) stderr.write(`  ${hint}\n`);
  } else {
    stderr.write(`error: ${cliError.code}: ${cliError.message}\n`);
  }
  if (json && !stdout.written) {
    const document = { error: { ...cliError.toJSON(), ...(hint ? { hint } : {}) } };
    stdout.write(redactApiKey(`${JSON.stringify(document, null, 2)}\n`, apiKey.key));
  }
  return cliError.exitCode;
}

/** Remembers whether anything reached stdout, so an error never adds a second JSON document. */
class TrackedOutput {
  written = false;
  private readonly out: CliIo['stdout'];

  constructor(out: CliIo['stdout']) {
    this.out = out;
  }

  write(chunk: string): unknown {
    if (chunk.length > 0) this.written = true;
    return this.out.write(chunk);
  }
}

/** The process entry point: argv, streams, environment, Ctrl-C. */
export async function main(): Promise<void> {
  // A reader that went away (`longhaul events ID | head`) is no error: stop quietly.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? ExitCodes.ok);
  });
  const interrupt = new AbortController();
  process.once('SIGINT', () => {
    interrupt.abort();
    // A second Ctrl-C while the first is being handled ends the process at once.
    process.once('SIGINT', () => process.exit(ExitCodes.interrupted));
  });
  process.exitCode = await runCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    signal: interrupt.signal,
  });
}
