import { waitFor, type ApiClient } from '@longhaul/testing';

/** One Server-Sent Events frame as it came over the wire. */
export interface SseFrame {
  id?: string;
  event?: string;
  /** The `data` lines joined with `\n`. */
  data?: string;
  retry?: string;
  /** The text of a comment line (`: keepalive`). */
  comment?: string;
}

/** An event frame with its data parsed. */
export interface SseEvent {
  id: number;
  event: string;
  data: Record<string, unknown> & { kind: string; seq: number; jobId: string };
  /** The data exactly as sent. */
  raw: string;
}

/** How a stream ended: the server ended the response, the client aborted, or the connection failed. */
export type StreamEnd = 'ended' | 'aborted' | 'failed';

/** A client of one `text/event-stream` response that records every frame. */
export interface EventStream {
  status: number;
  headers: Headers;
  frames: SseFrame[];
  events(): SseEvent[];
  closed: Promise<StreamEnd>;
  /** Drops the connection, as a client that goes away would. */
  abort(): void;
  /** Waits until `accept` holds for the events received so far. */
  waitForEvents(accept: (events: SseEvent[]) => boolean, description: string, timeoutMs?: number): Promise<SseEvent[]>;
}

/**
 * Opens `path` on `api` and reads it as an event stream (a non-200 answer is read as plain text
 * into `frames: []`). It is sent with the client's API key, unless `headers` carry their own
 * `authorization`.
 */
export async function openEventStream(api: ApiClient, path: string, headers: Record<string, string> = {}): Promise<EventStream> {
  const controller = new AbortController();
  const response = await fetch(`${api.baseUrl}${path}`, { headers: api.withAuth({ accept: 'text/event-stream', ...headers }), signal: controller.signal });
  const frames: SseFrame[] = [];
  const closed = (async (): Promise<StreamEnd> => {
    if (!response.body) return 'ended';
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          frames.push(parseFrame(buffer.slice(0, end)));
          buffer = buffer.slice(end + 2);
        }
      }
      return 'ended';
    } catch {
      return controller.signal.aborted ? 'aborted' : 'failed';
    }
  })();
  const events = (): SseEvent[] =>
    frames
      .filter((f) => f.id !== undefined && f.data !== undefined)
      .map((f) => ({ id: Number(f.id), event: f.event ?? 'message', data: JSON.parse(f.data!) as SseEvent['data'], raw: f.data! }));
  return {
    status: response.status,
    headers: response.headers,
    frames,
    events,
    closed,
    abort: () => controller.abort(),
    waitForEvents: (accept, description, timeoutMs = 60_000) =>
      waitFor(async () => (accept(events()) ? events() : null), { timeoutMs, intervalMs: 50, description }),
  };
}

function parseFrame(block: string): SseFrame {
  const frame: SseFrame = {};
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      frame.comment = line.slice(1).trim();
      continue;
    }
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'data') data.push(value);
    else if (name === 'id' || name === 'event' || name === 'retry') frame[name] = value;
  }
  if (data.length > 0) frame.data = data.join('\n');
  return frame;
}

/** Waits for `closed`, failing after `timeoutMs`. */
export async function closedWithin(stream: EventStream, timeoutMs: number, description: string): Promise<StreamEnd> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${description}`)), timeoutMs);
  });
  try {
    return await Promise.race([stream.closed, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
