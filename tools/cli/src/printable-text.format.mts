/**
 * Text the api returns, made safe to write to a terminal. Much of it was typed by someone else
 * (a dead-lettered message's value, an API key's name), so it may hold anything: control
 * characters are shown escaped (`\u001b`), never written as they are, where they would move the
 * cursor, change colours or forge lines of output.
 */

/** `text` with control characters escaped; with `lineBreaks`, newlines and tabs are kept. */
export function printable(text: string, lineBreaks: boolean): string {
  const control = lineBreaks ? /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g : /[\u0000-\u001f\u007f-\u009f]/g;
  return text.replace(control, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `label  value` lines, the values in one column, both escaped. */
export function labelled(rows: readonly (readonly [string, string])[], indent: string): string {
  const width = Math.max(...rows.map(([label]) => printable(label, false).length));
  return rows.map(([label, value]) => `${indent}${printable(label, false).padEnd(width)}  ${printable(value, false)}\n`).join('');
}
