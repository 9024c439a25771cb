import { SetMetadata } from '@nestjs/common';
import type { Scope } from './principal';

export const REQUIRED_SCOPE = 'longhaul:required-scope';

/**
 * The scope a route needs instead of the one its method implies (`GET`/`HEAD`: `read`,
 * anything else: `write`). Operator routes say `@RequiresScope('admin')`.
 */
export const RequiresScope = (scope: Scope) => SetMetadata(REQUIRED_SCOPE, scope);

/** The scope a request needs when its route names none. */
export function impliedScope(method: string): Scope {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}
