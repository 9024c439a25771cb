import type { NextFunction, Request, RequestHandler, Response } from 'express';
import express from 'express';
import { ErrorCodes } from '@longhaul/contracts';
import { ProblemError } from './problem';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** `application/json` or any `application/*+json`, with optional parameters. */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const mediaType = header.split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

/** Options of {@link jsonBody}. */
export interface JsonBodyOptions {
  /**
   * Paths whose request bodies are left unread, for handlers that stream them (uploads). Exact
   * paths, matched as Express routes them: case-insensitively and with or without a trailing
   * `/`. @defaultValue none
   */
  skipPaths?: readonly string[];
}

/**
 * Strict JSON bodies: a request with a body must say it is JSON (else `415`), must be valid
 * JSON (else `400`) and no larger than `limit` (else `413`). Each refusal is a problem+json
 * error raised before any handler runs, so nothing is written. Requests to `skipPaths` pass
 * through unread.
 */
export function jsonBody(limit: string, options: JsonBodyOptions = {}): RequestHandler[] {
  const parse = express.json({ limit, strict: true, type: () => true });
  const skipped = new Set((options.skipPaths ?? []).map(routePath));
  return [
    (req: Request, _res: Response, next: NextFunction) => {
      const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
      if (!BODY_METHODS.has(req.method) || !hasBody || skipped.has(routePath(req.path))) return next();
      if (!isJsonContentType(req.headers['content-type'])) {
        return next(
          ProblemError.of(415, ErrorCodes.unsupportedMediaType, 'Unsupported Media Type', `expected application/json, got ${req.headers['content-type'] ?? 'no Content-Type'}`),
        );
      }
      parse(req, _res, (error?: unknown) => next(error ? toProblem(error) : undefined));
    },
  ];
}

/** A path as Express matches routes by default: case-insensitive, trailing `/` optional. */
function routePath(path: string): string {
  return path.toLowerCase().replace(/\/+$/, '') || '/';
}

function toProblem(error: unknown): ProblemError {
  const type = (error as { type?: string }).type;
  if (type === 'entity.too.large') return ProblemError.of(413, ErrorCodes.payloadTooLarge, 'Payload Too Large', 'request body is too large');
  if (type === 'entity.parse.failed') {
    return ProblemError.of(400, ErrorCodes.malformedJson, 'Malformed JSON', `request body is not valid JSON: ${(error as Error).message}`);
  }
  return ProblemError.of(400, ErrorCodes.malformedJson, 'Bad Request', (error as Error).message);
}
