import { ErrorCodes, LonghaulError } from '@longhaul/contracts';

/** A `cursor` that is not a `nextCursor` the api gave out (HTTP 400). */
export class InvalidJobCursorError extends LonghaulError {
  constructor() {
    const message = 'must be the nextCursor of an earlier page, passed back unchanged';
    super(ErrorCodes.validationFailed, `cursor ${message}`, false, { errors: [{ field: 'cursor', message }] });
  }
}
