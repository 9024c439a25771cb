/**
 * The one error type the infra CLI raises on purpose.
 *
 * `code` is stable so callers (and tests) can branch on it; `logFile` points at
 * the component log whose tail explains the failure, and the CLI prints it.
 */
export type InfraErrorCode =
  | 'PORT_TAKEN'
  | 'TOOL_MISSING'
  | 'PROVISION_FAILED'
  | 'START_FAILED'
  | 'HEALTH_TIMEOUT'
  | 'DEPENDENCY_DOWN'
  | 'CONNECTOR_FAILED'
  | 'STOP_FAILED'
  | 'CONFIG_INVALID'
  | 'USAGE';

export class InfraError extends Error {
  readonly code: InfraErrorCode;
  readonly logFile: string | undefined;

  constructor(code: InfraErrorCode, message: string, logFile?: string) {
    super(message);
    this.name = 'InfraError';
    this.code = code;
    this.logFile = logFile;
  }
}
