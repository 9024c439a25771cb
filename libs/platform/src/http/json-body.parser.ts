import { ErrorCodes } from '@longhaul/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pathOf } from './fastify.adapter';
import { ProblemError } from './problem';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** `application/json` or any `application/*+json`, with optional parameters. */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const mediaType = header.split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

/** Options of {@link installJsonBody}. */
export interface JsonBodyOptions {
  /**
   * Paths whose request bodies are left unread, for handlers that stream them (uploads). Exact
   * paths, matched as the router matches routes: case-insensitively and with or without a
   * trailing `/`. @defaultValue none
   */
  skipPaths?: readonly string[];
}

/** `64kb`, `1mb`, `512b` (the forms the services' config takes) in bytes. */
export function byteCount(limit: string): number {
  const match = /^(\d+)(b|kb|mb)$/.exec(limit.toLowerCase());
  if (!match) throw new Error(`not a size: ${limit}`);
  return Number(match[1]) * { b: 1, kb: 1024, mb: 1024 * 1024 }[match[2] as 'b' | 'kb' | 'mb'];
}

/** What the body parser does with a request, before reading any of it. */
export type BodyVerdict = 'unread' | 'json' | ProblemError;

/**
 * The body of `request` is left `unread` (no body method, or a path in `skipped`), or must be read
 * as JSON, or is refused with a `415` because it does not say it is JSON.
 */
export function bodyVerdict(request: Pick<FastifyRequest, 'method' | 'url' | 'headers'>, skipped: ReadonlySet<string>): BodyVerdict {
  if (!BODY_METHODS.has(request.method) || skipped.has(routePath(pathOf(request.url)))) return 'unread';
  const contentType = request.headers['content-type'];
  if (isJsonContentType(contentType)) return 'json';
  return ProblemError.of(415, ErrorCodes.unsupportedMediaType, `expected application/json, got ${contentType ?? 'no Content-Type'}`);
}

/**
 * Strict JSON bodies: a request with a body must say it is JSON (else `415`), must be valid JSON
 * (else `400`) and no larger than `limit` (else `413`). Each refusal is a problem+json error
 * raised before any guard or handler runs, so nothing is written. Requests to `skipPaths` pass
 * with their body unread, for the handler to stream from `request.raw`. It replaces every parser
 * Fastify has: one parser for any content type, which decides by {@link bodyVerdict}.
 */
export function installJsonBody(fastify: FastifyInstance, limit: string, options: JsonBodyOptions = {}): void {
  const maxBytes = byteCount(limit);
  const skipped = new Set((options.skipPaths ?? []).map(routePath));
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (request, payload, done) => {
    const verdict = bodyVerdict(request, skipped);
    if (verdict === 'unread') return done(null, undefined);
    if (verdict instanceof ProblemError) return done(verdict, undefined);
    const announced = Number(request.headers['content-length'] ?? 0);
    if (announced > maxBytes) return done(tooLarge(), undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error: Error | null, body?: unknown) => {
      if (settled) return;
      settled = true;
      done(error, body);
    };
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        // Stop buffering; the rest of the body is discarded with the answer.
        payload.removeAllListeners('data');
        payload.resume();
        return settle(tooLarge());
      }
      chunks.push(chunk);
    });
    payload.on('error', (error) => settle(error));
    payload.on('end', () => {
      const text = Buffer.concat(chunks, size).toString('utf8').trim();
      if (text === '') return settle(null, undefined);
      // Strict, as a request body is: an object or an array, never a bare string or number.
      if (text[0] !== '{' && text[0] !== '[') return settle(malformed('expected an object or an array'));
      try {
        settle(null, JSON.parse(text));
      } catch (error) {
        settle(malformed((error as Error).message));
      }
    });
  });
}

/** A path as the router matches routes: case-insensitive, trailing `/` optional. */
function routePath(path: string): string {
  return path.toLowerCase().replace(/\/+$/, '') || '/';
}

const tooLarge = () => ProblemError.of(413, ErrorCodes.payloadTooLarge, 'request body is too large');

const malformed = (reason: string) => ProblemError.of(400, ErrorCodes.malformedJson, `request body is not valid JSON: ${reason}`);
