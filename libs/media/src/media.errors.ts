import { ErrorCodes, LonghaulError } from '@longhaul/contracts';

// The input's fault is never retryable: another attempt reads the same bytes. A tool's fault
// (ffmpeg missing, the disk full, the process killed by the kernel) is `step_failed`, retryable,
// because another attempt, perhaps on another worker, can succeed.

/** The input is 0 bytes long. */
export class MediaEmptyError extends LonghaulError {
  constructor() {
    super(ErrorCodes.mediaEmpty, 'the media is empty (0 bytes)', false);
    this.name = 'MediaEmptyError';
  }
}

/** ffprobe cannot read the input: not a media file, a refused container, truncated, or damaged. */
export class MediaUnreadableError extends LonghaulError {
  constructor(reason: string) {
    super(ErrorCodes.mediaUnreadable, `the media cannot be read: ${reason}`, false);
    this.name = 'MediaUnreadableError';
  }
}

/** The input has no video stream (audio only, or only cover art). */
export class MediaNoVideoError extends LonghaulError {
  constructor(what: string) {
    super(ErrorCodes.mediaNoVideo, `the media has no video stream (${what})`, false);
    this.name = 'MediaNoVideoError';
  }
}

/** The input is readable but unusable: no duration, no picture size, too large, or it fails to decode. */
export class MediaInvalidError extends LonghaulError {
  constructor(reason: string) {
    super(ErrorCodes.mediaInvalid, `the media is invalid: ${reason}`, false);
    this.name = 'MediaInvalidError';
  }
}

/** ffmpeg or ffprobe failed for a reason that is not the input's (retryable `step_failed`). */
export class MediaToolError extends LonghaulError {
  constructor(message: string) {
    super(ErrorCodes.stepFailed, message, true);
    this.name = 'MediaToolError';
  }
}
