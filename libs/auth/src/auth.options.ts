export const AUTH_OPTIONS = Symbol('AUTH_OPTIONS');

export interface AuthModuleOptions {
  /**
   * How long a looked-up key is trusted before it is read again. This bounds how long a revoked
   * key keeps working, so it stays at or under a second.
   */
  keyCacheMs: number;
  /** Most keys (and unknown prefixes) remembered at once. @defaultValue 10000 */
  maxCachedKeys?: number;
}

/** The longest {@link AuthModuleOptions.keyCacheMs} allowed: revocation takes effect within it. */
export const MAX_KEY_CACHE_MS = 1000;
