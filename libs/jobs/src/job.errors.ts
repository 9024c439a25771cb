import { ErrorCodes, LonghaulError } from '@longhaul/contracts';

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
