import { ErrorCodes, LonghaulError } from '@longhaul/contracts';
import type { AddressKind } from '@longhaul/egress';

// Every intake refusal is final for the request that caused it (`retryable` says whether the same
// request could succeed later, e.g. once a source's server is back). The api answers each with
// problem+json; its status comes from the code (`STATUS_BY_CODE`).

/** `GET /v1/uploads/{id}` of an id that was never stored (404 `not_found`). */
export class UploadNotFoundError extends LonghaulError {
  constructor(readonly uploadId: string) {
    super(ErrorCodes.notFound, `upload ${uploadId} does not exist`, false);
  }
}

/** A job's `source.uploadId` names no upload (422 `upload_not_found`). */
export class SourceUploadNotFoundError extends LonghaulError {
  constructor(readonly uploadId: string) {
    super(ErrorCodes.uploadNotFound, `upload ${uploadId} does not exist: upload the video first (POST /v1/uploads)`, false, { uploadId });
  }
}

/** An upload whose Content-Type is not `video/*` or `application/octet-stream` (415). */
export class UploadMediaTypeError extends LonghaulError {
  constructor(contentType: string | undefined) {
    super(ErrorCodes.unsupportedMediaType, `expected a video/* or application/octet-stream body, got ${contentType ?? 'no Content-Type'}`, false);
  }
}

/** An upload larger than `UPLOAD_MAX_BYTES`, announced or counted (413 `payload_too_large`). */
export class UploadTooLargeError extends LonghaulError {
  constructor(readonly maxBytes: number) {
    super(ErrorCodes.payloadTooLarge, `the upload is larger than ${maxBytes} bytes`, false, { maxBytes });
  }
}

/** The upload's body ended before it was complete: the client went away, or sent less than its Content-Length (400). */
export class UploadIncompleteError extends LonghaulError {
  constructor() {
    super(ErrorCodes.validationFailed, 'the upload ended before its body was complete', false);
  }
}

/** A source URL, or a redirect's target, that is not http or https (422). */
export class SourceInvalidSchemeError extends LonghaulError {
  constructor(url: string) {
    super(ErrorCodes.sourceInvalidScheme, `source ${redact(url)} is not an http or https URL`, false);
  }
}

/** A source whose host resolved to an address sources may not come from (422). */
export class SourceAddressForbiddenError extends LonghaulError {
  constructor(host: string, address: string, kind: AddressKind) {
    super(ErrorCodes.sourceAddressForbidden, `source host ${host} resolves to ${address}, a ${kind} address; only public addresses are fetched`, false, {
      host,
      addressKind: kind,
    });
  }
}

/** A source that could not be downloaded (422): `status` is set when the server answered. */
export class SourceUnreachableError extends LonghaulError {
  constructor(url: string, reason: string, retryable: boolean, readonly status?: number) {
    super(ErrorCodes.sourceUnreachable, `source ${redact(url)} could not be downloaded: ${reason}`, retryable, status === undefined ? undefined : { sourceStatus: status });
  }
}

/** A source larger than the upload limit, announced or counted (422). */
export class SourceTooLargeError extends LonghaulError {
  constructor(url: string, readonly maxBytes: number) {
    super(ErrorCodes.sourceTooLarge, `source ${redact(url)} is larger than ${maxBytes} bytes`, false, { maxBytes });
  }
}

/** A playlist or list of other files, refused before anything reads it (422). */
export class MediaFormatRefusedError extends LonghaulError {
  constructor(format: string) {
    super(ErrorCodes.mediaFormatRefused, `${format} is refused: it references other files or addresses; upload or link the media file itself`, false, { format });
  }
}

/** A URL without its credentials and query, for messages and logs. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return JSON.stringify(url.slice(0, 64));
  }
}
