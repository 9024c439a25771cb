/**
 * Server-Sent Events framing (WHATWG HTML, "Server-sent events"): fields are `name: value` lines,
 * and a blank line ends a frame. A value never holds a line break: data is split into one `data:`
 * line per line (a client joins them with `\n`), and ids, names and comments are kept to one line.
 */

const LINE_BREAK = /\r\n|\r|\n/;

/** One event: `id: <id>`, `event: <name>`, `data: <json>`, then a blank line. */
export function sseEvent(id: number, name: string, data: unknown): string {
  const lines = JSON.stringify(data).split(LINE_BREAK).map((line) => `data: ${line}\n`);
  return `id: ${id}\nevent: ${oneLine(name)}\n${lines.join('')}\n`;
}

/** Tells the client how long to wait before reconnecting, in ms. */
export function sseRetry(ms: number): string {
  return `retry: ${Math.max(0, Math.trunc(ms))}\n\n`;
}

/** A comment: ignored by clients, it keeps proxies and load balancers from closing an idle stream. */
export function sseComment(text: string): string {
  return `: ${oneLine(text)}\n\n`;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}
