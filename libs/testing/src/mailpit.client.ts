import type { WaitOptions } from './wait-for';
import { waitFor } from './wait-for';

/*
 * The shapes below are Mailpit v1.33.1's JSON as its handlers write it (server/apiv1 and
 * internal/storage of the Go module), field names and casing included.
 */

/** A mail address (Go's `net/mail.Address`): `"Ann <ann@x.test>"` is `{ Name: 'Ann', Address: 'ann@x.test' }`. */
export interface MailpitAddress {
  Name: string;
  Address: string;
}

/** One message of a list or search result. */
export interface MailpitMessageSummary {
  /** Mailpit's own id: what {@link MailpitClient.getMessage} takes. */
  ID: string;
  /** The `Message-ID` header without its angle brackets. */
  MessageID: string;
  Read: boolean;
  From: MailpitAddress;
  /** `null` (not `[]`) when the message has no such header. */
  To: MailpitAddress[] | null;
  Cc: MailpitAddress[] | null;
  /** Also every envelope recipient (`RCPT TO`) that no To, Cc or Bcc header names. */
  Bcc: MailpitAddress[] | null;
  ReplyTo: MailpitAddress[];
  Subject: string;
  /** When Mailpit received it, RFC 3339. */
  Created: string;
  /** The SMTP AUTH user name, `''` without AUTH. */
  Username: string;
  Tags: string[];
  Size: number;
  /** How many attachments. */
  Attachments: number;
  /** Up to 250 characters of the body. */
  Snippet: string;
}

/** `GET /api/v1/messages` and `GET /api/v1/search`. */
export interface MailpitMessageList {
  /** Messages in the mailbox. */
  total: number;
  unread: number;
  /** Messages matching the search (equal to `total` for a plain list). */
  messages_count: number;
  messages_unread: number;
  /** Offset of the first message of this page. */
  start: number;
  tags: string[];
  /** This page, newest first. */
  messages: MailpitMessageSummary[];
}

export interface MailpitAttachment {
  PartID: string;
  FileName: string;
  ContentType: string;
  ContentID: string;
  Size: number;
  Checksums: { MD5: string; SHA1: string; SHA256: string };
}

/** `GET /api/v1/message/{id}`: one message with its bodies. */
export interface MailpitMessage {
  ID: string;
  /** The `Message-ID` header without its angle brackets. */
  MessageID: string;
  From: MailpitAddress;
  To: MailpitAddress[];
  Cc: MailpitAddress[];
  Bcc: MailpitAddress[];
  ReplyTo: MailpitAddress[];
  ReturnPath: string;
  Subject: string;
  ListUnsubscribe: { Header: string; Links: string[]; Errors: string; HeaderPost: string };
  /** The `Date` header, or when Mailpit received it if there is none; RFC 3339. */
  Date: string;
  Tags: string[];
  Username: string;
  /** The text/plain body, `''` if there is none. */
  Text: string;
  /** The text/html body, `''` if there is none. */
  HTML: string;
  Size: number;
  Inline: MailpitAttachment[];
  Attachments: MailpitAttachment[];
}

/** `GET /api/v1/message/{id}/headers`: every header with all its values, names in Go's canonical case (`Message-Id`). */
export type MailpitHeaders = Record<string, string[]>;

/** `GET /api/v1/info`. */
export interface MailpitInfo {
  Version: string;
  /** `disabled`: the stack runs Mailpit with its release check off. */
  LatestVersion: string;
  Database: string;
  DatabaseSize: number;
  Messages: number;
  Unread: number;
  Tags: Record<string, number>;
  RuntimeStats: {
    Uptime: number;
    Memory: number;
    MessagesDeleted: number;
    SMTPAccepted: number;
    SMTPAcceptedSize: number;
    SMTPRejected: number;
    SMTPIgnored: number;
  };
}

/** A page of a list or search. */
export interface MailpitPage {
  /** @defaultValue 0 */
  start?: number;
  /** @defaultValue 50 (Mailpit's), 1000 for the `find…` methods */
  limit?: number;
}

/** How many candidates the `find…` methods fetch before filtering them exactly. */
const FIND_LIMIT = 1000;

/** Values of header `name` in any case (`message-id` finds `Message-Id`); `[]` when absent. */
export function headerValues(headers: MailpitHeaders, name: string): string[] {
  const wanted = name.toLowerCase();
  return Object.entries(headers).flatMap(([key, values]) => (key.toLowerCase() === wanted ? values : []));
}

/**
 * A small client of Mailpit's HTTP API (`StackInfo.mailpitUrl`), for tests that check what was
 * sent by mail. Every call throws on an answer other than 2xx, with Mailpit's message.
 *
 * Mailpit's link check (`/api/v1/message/{id}/link-check`) and the UI's `/proxy` are left out
 * on purpose: they fetch a message's links and images, which would leave the machine.
 */
export class MailpitClient {
  readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  info(): Promise<MailpitInfo> {
    return this.json<MailpitInfo>('GET', '/api/v1/info');
  }

  /** One page of the mailbox, newest first, with the mailbox's `total`. */
  listMessages(page: MailpitPage = {}): Promise<MailpitMessageList> {
    return this.json<MailpitMessageList>('GET', `/api/v1/messages${pageQuery(page)}`);
  }

  /**
   * Messages matching a query in Mailpit's search syntax (`to:`, `from:`, `subject:`,
   * `message-id:`, `addressed:`, bare words for the text; values in double quotes when they hold
   * spaces). `messages_count` is how many match in all; each term matches a substring.
   */
  search(query: string, page: MailpitPage = {}): Promise<MailpitMessageList> {
    return this.json<MailpitMessageList>('GET', `/api/v1/search?query=${encodeURIComponent(query)}${pageQuery(page, '&')}`);
  }

  /** Messages to `address` (in To, Cc, Bcc, or only in the envelope), compared whole and without case. */
  async findByRecipient(address: string, page: MailpitPage = {}): Promise<MailpitMessageSummary[]> {
    const wanted = address.trim().toLowerCase();
    const { messages } = await this.search(`addressed:${quoted(wanted)}`, findPage(page));
    return messages.filter((message) =>
      [...(message.To ?? []), ...(message.Cc ?? []), ...(message.Bcc ?? [])].some((to) => to.Address.toLowerCase() === wanted),
    );
  }

  /** Messages whose subject contains `text` (Mailpit's match: ASCII letters in any case). */
  async findBySubject(text: string, page: MailpitPage = {}): Promise<MailpitMessageSummary[]> {
    return (await this.search(`subject:${quoted(text)}`, findPage(page))).messages;
  }

  /** The message with this `Message-ID` (with or without angle brackets), if Mailpit has it. */
  async findByMessageId(messageId: string): Promise<MailpitMessageSummary | undefined> {
    const wanted = messageId.trim().replace(/^<|>$/g, '');
    const { messages } = await this.search(`message-id:${quoted(wanted)}`, { limit: FIND_LIMIT });
    return messages.find((message) => message.MessageID === wanted);
  }

  /**
   * Messages carrying header `name` with exactly `value` (any of its values). Mailpit cannot
   * search arbitrary headers, so this reads the headers of each candidate: the newest messages,
   * or those matching `query` (e.g. `to:ann@x.test`) to read fewer.
   */
  async findByHeader(name: string, value: string, options: MailpitPage & { query?: string } = {}): Promise<MailpitMessageSummary[]> {
    const page = findPage(options);
    const { messages } = options.query ? await this.search(options.query, page) : await this.listMessages(page);
    const matches = await Promise.all(
      messages.map(async (message) => headerValues(await this.getHeaders(message.ID), name).includes(value)),
    );
    return messages.filter((_, index) => matches[index]);
  }

  /** One message with its text and HTML bodies; `latest` is the newest. Mailpit marks it read. */
  getMessage(id: string): Promise<MailpitMessage> {
    return this.json<MailpitMessage>('GET', `/api/v1/message/${encodeURIComponent(id)}`);
  }

  /** Every header of a message, `Message-Id` included; see {@link headerValues}. */
  getHeaders(id: string): Promise<MailpitHeaders> {
    return this.json<MailpitHeaders>('GET', `/api/v1/message/${encodeURIComponent(id)}/headers`);
  }

  /** The message exactly as it came over SMTP. */
  async getRaw(id: string): Promise<string> {
    return (await this.request('GET', `/api/v1/message/${encodeURIComponent(id)}/raw`)).text();
  }

  /** Empties the mailbox. */
  async deleteAllMessages(): Promise<void> {
    // No body: Mailpit deletes everything when no IDs are given.
    await this.request('DELETE', '/api/v1/messages');
  }

  /**
   * Polls `find` (e.g. `() => mail.findByRecipient('ann@x.test')`) until it returns at least
   * `count` messages, and returns them: mail arrives some time after whatever sent it.
   */
  waitForMessages(
    find: () => Promise<MailpitMessageSummary[]>,
    options: WaitOptions & { count?: number } = {},
  ): Promise<MailpitMessageSummary[]> {
    const count = options.count ?? 1;
    return waitFor(async () => {
      const found = await find();
      return found.length >= count ? found : null;
    }, { description: `${count} message(s) in Mailpit`, ...options });
  }

  private async json<T>(method: string, path: string): Promise<T> {
    return (await (await this.request(method, path)).json()) as T;
  }

  private async request(method: string, path: string): Promise<Response> {
    const response = await fetch(`${this.baseUrl}${path}`, { method, signal: AbortSignal.timeout(10_000) });
    if (!response.ok) {
      throw new Error(`Mailpit ${method} ${path} answered ${response.status}: ${(await response.text()).trim()}`);
    }
    return response;
  }
}

function pageQuery(page: MailpitPage, separator = '?'): string {
  const params = new URLSearchParams();
  if (page.start !== undefined) params.set('start', String(page.start));
  if (page.limit !== undefined) params.set('limit', String(page.limit));
  const query = params.toString();
  return query ? `${separator}${query}` : '';
}

function findPage(page: MailpitPage): MailpitPage {
  return { start: page.start, limit: page.limit ?? FIND_LIMIT };
}

/**
 * A search value as one term. Mailpit drops every double quote while it splits a query, so a
 * value holding one cannot be searched for exactly.
 */
function quoted(value: string): string {
  if (value.includes('"')) throw new Error(`Mailpit cannot search for a value with a double quote: ${value}`);
  return `"${value}"`;
}
