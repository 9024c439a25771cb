/**
 * The api path of a dead-lettered message, from the ID operand. The api takes only a record id
 * (a positive whole number of at most 18 digits), so anything else is a mistake made here, most
 * often a job id or a dead letter's id pasted into the wrong command: it is refused as bad usage
 * before any request, saying what an id looks like, instead of a bare `400 malformed_id`.
 */
import { UsageError } from './cli.errors.mts';

const MESSAGE_ID = /^[1-9][0-9]{0,17}$/;

/** `/v1/dlq-messages/{id}`, with `suffix` (`/replay`) appended. */
export function dlqMessagePath(id: string, suffix = ''): string {
  if (!MESSAGE_ID.test(id)) {
    throw new UsageError(`"${id}" is not a dead-lettered message id: that is a positive whole number of at most 18 digits, as dlq-messages list shows`);
  }
  return `/v1/dlq-messages/${id}${suffix}`;
}
