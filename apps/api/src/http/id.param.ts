import { ErrorCodes } from '@longhaul/contracts';
import { isUuid } from '@longhaul/persistence';
import { ProblemError } from '@longhaul/platform';

/** Refuses a path id that is not a UUID with a 400 naming what was expected. */
export function requireUuid(id: string, what: string): string {
  if (!isUuid(id)) throw ProblemError.of(400, ErrorCodes.malformedId, `'${id}' is not a ${what} id (a UUID)`);
  return id;
}
