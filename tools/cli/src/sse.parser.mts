/**
 * An incremental parser for `text/event-stream`, following the WHATWG HTML "event stream
 * interpretation" rules: lines end in CRLF, LF or CR (a CR at the end of one chunk and an LF at
 * the start of the next are one line end); `:` starts a comment; `data` lines are joined with
 * LF; a blank line dispatches; `id` persists across events (and is what `Last-Event-ID` carries
 * on a reconnect); `retry` sets the reconnection time; an event still incomplete when the
 * stream ends is dropped.
 *
 * Feed it bytes (decoded as UTF-8, a leading BOM dropped, characters split across chunks
 * rejoined) or already decoded strings; each `push` returns the events the chunk completed.
 */

/** One dispatched event. */
export interface SseEvent {
  /** The `event` field, `message` when the frame named none. */
  type: string;
  /** The `data` lines joined with LF. */
  data: string;
  /** The last `id` the stream set, at the time this event was dispatched ('' if never). */
  id: string;
}

const LF = 0x0a;
const CR = 0x0d;

export class SseParser {
  /** Reconnection time in ms the server asked for with `retry:`, if it did. */
  retryMs: number | undefined;
  /** Persists across events and across reconnects of the same stream. */
  lastEventId: string;

  private readonly decoder = new TextDecoder('utf-8');
  private started = false;
  /** The previous chunk ended in CR: an LF opening the next one belongs to that line end. */
  private skipLeadingLf = false;
  private partialLine = '';
  private data = '';
  private hasData = false;
  private eventType = '';
  /** The `id` buffer: dispatched with each event, kept until the server sets another. */
  private idBuffer: string;

  constructor(lastEventId = '') {
    this.lastEventId = lastEventId;
    this.idBuffer = lastEventId;
  }

  push(chunk: Uint8Array | string): SseEvent[] {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (text.length === 0) return [];
    if (!this.started) {
      this.started = true;
      // The decoder already drops a BOM from bytes; strings pushed directly may still carry one.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const events: SseEvent[] = [];
    let start = 0;
    if (this.skipLeadingLf) {
      this.skipLeadingLf = false;
      if (text.charCodeAt(0) === LF) start = 1;
    }
    for (let i = start; i < text.length; i++) {
      const char = text.charCodeAt(i);
      if (char !== LF && char !== CR) continue;
      const line = this.partialLine + text.slice(start, i);
      this.partialLine = '';
      if (char === CR) {
        if (i + 1 === text.length) this.skipLeadingLf = true;
        else if (text.charCodeAt(i + 1) === LF) i++;
      }
      start = i + 1;
      const event = this.processLine(line);
      if (event) events.push(event);
    }
    this.partialLine += text.slice(start);
    return events;
  }

  /** The stream ended: whatever was not dispatched by a blank line is dropped, as the spec says. */
  end(): void {
    this.decoder.decode();
    this.partialLine = '';
    this.data = '';
    this.hasData = false;
    this.eventType = '';
    // An `id:` of the dropped frame was never dispatched, so it is not where to resume from.
    this.idBuffer = this.lastEventId;
    this.skipLeadingLf = false;
    this.started = false;
  }

  private processLine(line: string): SseEvent | undefined {
    if (line.length === 0) return this.dispatch();
    if (line.charCodeAt(0) === 0x3a /* ':' */) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    switch (field) {
      case 'event':
        this.eventType = value;
        break;
      case 'data':
        this.data += this.hasData ? `\n${value}` : value;
        this.hasData = true;
        break;
      case 'id':
        // An id with NUL is ignored so that it can never be smuggled into a request header.
        if (!value.includes('\0')) this.idBuffer = value;
        break;
      case 'retry':
        if (/^[0-9]+$/.test(value)) this.retryMs = Number(value);
        break;
      default:
        // Unknown fields are ignored.
        break;
    }
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    this.lastEventId = this.idBuffer;
    const hadData = this.hasData;
    const event: SseEvent = { type: this.eventType || 'message', data: this.data, id: this.idBuffer };
    this.data = '';
    this.hasData = false;
    this.eventType = '';
    return hadData ? event : undefined;
  }
}
