import { ErrorCodes, LonghaulError, type JobStatus } from '@longhaul/contracts';

export class JobNotFoundError extends LonghaulError {
  constructor(readonly jobId: string) {
    super(ErrorCodes.notFound, `job ${jobId} does not exist`, false);
  }
}

export class IdempotencyKeyReusedError extends LonghaulError {
  constructor(key: string) {
    super(ErrorCodes.idempotencyKeyReused, `Idempotency-Key '${key}' was already used with a different request body`, false);
  }
}

/** The job is finished and the requested change would reopen it (HTTP 409). */
export class JobFinishedError extends LonghaulError {
  constructor(
    readonly jobId: string,
    readonly status: JobStatus,
  ) {
    super(ErrorCodes.jobFinished, `job ${jobId} is already ${status}`, false, { state: status });
  }
}

export class WebhookEndpointNotFoundError extends LonghaulError {
  constructor(readonly endpointId: string) {
    super(ErrorCodes.notFound, `webhook endpoint ${endpointId} does not exist`, false);
  }
}

export class DeadLetterNotFoundError extends LonghaulError {
  constructor(readonly deadLetterId: string) {
    super(ErrorCodes.notFound, `dead letter ${deadLetterId} does not exist`, false);
  }
}
