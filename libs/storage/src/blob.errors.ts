import { ErrorCodes, LonghaulError } from '@longhaul/contracts';

/** No blob at `key`. Not retryable: asking again finds nothing either, unless someone writes it. */
export class BlobNotFoundError extends LonghaulError {
  constructor(readonly key: string) {
    super(ErrorCodes.blobNotFound, `no blob at "${key}"`, false, { key });
    this.name = 'BlobNotFoundError';
  }
}

/** A key or list prefix that `assertSafeKey` refuses. Never retryable: the key itself is wrong. */
export class BlobKeyInvalidError extends LonghaulError {
  constructor(key: string, reason: string) {
    super(ErrorCodes.blobKeyInvalid, `blob key ${JSON.stringify(key)} is invalid: ${reason}`, false, { key, reason });
    this.name = 'BlobKeyInvalidError';
  }
}

/**
 * A read asked for bytes the blob does not have (HTTP 416), a malformed range, or a body whose
 * length differs from the `contentLength` the caller promised.
 */
export class BlobRequestInvalidError extends LonghaulError {
  constructor(message: string, details: Record<string, unknown>) {
    super(ErrorCodes.validationFailed, message, false, details);
    this.name = 'BlobRequestInvalidError';
  }
}
