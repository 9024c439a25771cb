import { ErrorCodes, LonghaulError } from '@longhaul/contracts';

/** A client resumes after a position the job's feed never reached: not an event id we gave out (HTTP 400). */
export class FeedPositionAheadError extends LonghaulError {
  constructor(jobId: string, after: number, newest: number, field: string) {
    const message = `event ${after} does not exist: the newest event of job ${jobId} is ${newest}`;
    super(ErrorCodes.validationFailed, message, false, { errors: [{ field, message }] });
  }
}
