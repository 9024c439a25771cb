import type { ErrorCode } from './error-codes';

/**
 * The one base of every Longhaul error: a stable `code` and whether trying again can help.
 * Retry decisions read `retryable`, never the class.
 */
export class LonghaulError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly retryable: boolean,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'LonghaulError';
  }

  /** The serialisable form carried in events and stored on failed steps. */
  toJSON(): SerializedError {
    return { code: this.code, message: this.message, retryable: this.retryable };
  }
}

/** An error as it travels in an event or sits in a table. */
export interface SerializedError {
  code: string;
  message: string;
  retryable: boolean;
}
