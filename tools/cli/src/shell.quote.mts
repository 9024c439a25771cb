/**
 * Quotes a value for a POSIX shell when it needs it, so printed commands can be pasted as they are.
 */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
