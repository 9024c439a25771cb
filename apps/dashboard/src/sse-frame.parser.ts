// Reads `text/event-stream` as the WHATWG HTML spec's "event stream interpretation" says: lines
// end in CRLF, LF or CR; a line starting with `:` is a comment; `data` lines are joined with LF;
// a blank line dispatches the event; `id` persists from event to event (it is what
// `Last-Event-ID` carries on a reconnect); `retry` is the reconnection time the server advises;
// an event left incomplete when the stream ends is never dispatched.

/** One dispatched event. */
export interface SseMessage {
  /** The `event` field; `message` when the frame named none. */
  event: string;
  /** The `data` lines joined with LF. */
  data: string;
  /** The last `id` the stream set when this event was dispatched; '' if never. */
  id: string;
}

/** Feeds decoded text in chunks of any size; each `push` returns the events the chunk completed. */
export class SseFrameParser {
  /**
   * The id to resume after: starts as the one given, and takes the last `id:` seen each time a
   * frame ends (a frame with an id and no data too). An `id:` in a frame the connection cut off
   * does not count: that event never arrived.
   */
  lastEventId: string;
  /** The reconnection time the server advised with `retry:`, in ms; null while it said none. */
  retryMs: number | null = null;
  /** Comments seen (`: keepalive`): the stream is alive even when no event comes. */
  comments = 0;

  private buffer = '';
  private started = false;
  /** The last chunk ended in CR: an LF opening the next one is the rest of that line end. */
  private skipLeadingLf = false;
  private data: string[] = [];
  private event = '';
  /** The `id` field as last set; it becomes {@link lastEventId} when the frame ends. */
  private idBuffer: string;

  constructor(lastEventId = '') {
    this.lastEventId = lastEventId;
    this.idBuffer = lastEventId;
  }

  push(chunk: string): SseMessage[] {
    let text = chunk;
    if (text.length === 0) return [];
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.skipLeadingLf && text.startsWith('\n')) text = text.slice(1);
    this.skipLeadingLf = false;
    this.buffer += text;
    const messages: SseMessage[] = [];
    for (;;) {
      const end = /\r\n|\r|\n/.exec(this.buffer);
      if (!end) break;
      const line = this.buffer.slice(0, end.index);
      this.buffer = this.buffer.slice(end.index + end[0].length);
      // A CR closing the chunk ends the line now; should the next chunk open with LF, the two
      // were one CRLF split across chunks.
      if (end[0] === '\r' && this.buffer === '') this.skipLeadingLf = true;
      const message = this.line(line);
      if (message) messages.push(message);
    }
    return messages;
  }

  private line(line: string): SseMessage | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) {
      this.comments += 1;
      return null;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        break;
      case 'event':
        this.event = value;
        break;
      case 'id':
        if (!value.includes('\u0000')) this.idBuffer = value;
        break;
      case 'retry':
        if (/^[0-9]+$/.test(value)) this.retryMs = Number(value);
        break;
      default:
      // Fields the spec does not know are ignored.
    }
    return null;
  }

  private dispatch(): SseMessage | null {
    this.lastEventId = this.idBuffer;
    const data = this.data;
    const event = this.event;
    this.data = [];
    this.event = '';
    if (data.length === 0) return null;
    return { event: event || 'message', data: data.join('\n'), id: this.lastEventId };
  }
}
