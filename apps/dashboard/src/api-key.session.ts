// The API key the person typed into the key prompt. It is kept in sessionStorage, not
// localStorage: it belongs to this tab and is gone when the tab closes, so a shared machine does
// not keep it. Nothing else of the dashboard stores or shows it.

/** The sessionStorage entry holding the key. */
const STORAGE_KEY = 'longhaul.apiKey';

/** What a key may hold to be sent as a header at all: visible ASCII, no spaces. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/** The key of this tab, or null when none was given (or storage is unavailable). */
export function storedApiKey(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function rememberApiKey(key: string): void {
  sessionStorage.setItem(STORAGE_KEY, key);
}

/** Sign out: the tab forgets its key. */
export function forgetApiKey(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing stored where nothing can be stored.
  }
}

/** Whether `key` can be sent as a bearer token (it says nothing of whether the api takes it). */
export function isSendableKey(key: string): boolean {
  return HEADER_SAFE.test(key);
}

/** `Authorization: Bearer <key>` for a call to the api, or no header without a key. */
export function bearerHeaders(key: string | null): Record<string, string> {
  return key ? { authorization: `Bearer ${key}` } : {};
}

const refusalListeners = new Set<() => void>();

/** Calls `listener` whenever the api refuses the tab's key; returns the unsubscribe function. */
export function onKeyRefused(listener: () => void): () => void {
  refusalListeners.add(listener);
  return () => refusalListeners.delete(listener);
}

/**
 * Reported by every call and stream the api answered `401`, with the key it sent. The key is
 * forgotten and the listeners (the prompt) told. An answer to a key other than the one stored
 * now changes nothing, so a late answer never throws out a key just typed.
 */
export function reportKeyRefused(sentKey: string | null): void {
  if (sentKey !== storedApiKey()) return;
  forgetApiKey();
  for (const listener of refusalListeners) listener();
}
