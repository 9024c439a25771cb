/**
 * The errors the CLI raises on purpose, each with the exit code it ends the process with.
 *
 * Exit codes: 0 ok; 1 the api answered an error, could not be reached, or a followed job ended
 * `failed` or `cancelled`; 2 bad usage; 130 interrupted (Ctrl-C), as shells expect.
 */
export const ExitCodes = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/** A problem+json body (RFC 9457) as the api sends it; only `code` and `detail` are relied on. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  code?: string;
  detail?: string;
  instance?: string;
  /** Validation failures: every invalid field. */
  errors?: { field: string; message: string }[];
  retryAfterSeconds?: number;
  [member: string]: unknown;
}

export class CliError extends Error {
  /** Stable, machine-readable: `usage`, `api_unreachable`, `stream_gave_up`, … */
  readonly code: string;
  readonly exitCode: number;

  constructor(code: string, message: string, exitCode: number = ExitCodes.failed) {
    super(message);
    this.name = 'CliError';
    this.code = code;
    this.exitCode = exitCode;
  }

  /** What `--json` prints on stdout for this error. */
  toJSON(): Record<string, unknown> {
    return { code: this.code, detail: this.message };
  }
}

/** The command line could not be understood; exit 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super('usage', message, ExitCodes.usage);
    this.name = 'UsageError';
  }
}

/** The api answered with an error status; `problem` is its body (synthesised when it was not problem+json). */
export class ApiError extends CliError {
  readonly status: number;
  readonly problem: Problem;

  constructor(status: number, problem: Problem) {
    const code = problem.code ?? `http_${status}`;
    super(code, problem.detail ?? problem.title ?? `the api answered ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.problem = problem;
  }

  override toJSON(): Record<string, unknown> {
    return { status: this.status, ...this.problem, code: this.code, detail: this.message };
  }
}

/** True for the rejection an aborted `fetch`, stream read or timer raises. */
export function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
