import { z } from 'zod';
import { problemResponse, type HeaderDescription, type ResponseDescription } from '@longhaul/platform';

/**
 * Pieces the api's operation descriptions share: path ids, the rate-limit headers, and the
 * problem answers many routes give. Each says which stable `code` the body carries.
 */

/** `{id}` of a route: a UUID (anything else is `400 malformed_id`). */
export const IdPathSchema = z.object({ id: z.uuid().describe('A UUID') });

/** A header whose value is a whole number of seconds. */
const SecondsSchema = z.string().regex(/^\d+$/);

/** `RateLimit` and `RateLimit-Policy` (draft-ietf-httpapi-ratelimit-headers), on every answer once the key is known. */
export const RATE_LIMIT_HEADERS: Readonly<Record<string, HeaderDescription>> = {
  RateLimit: {
    description: 'What is left of the key\'s quota: `"<policy>";r=<requests left>;t=<seconds until the quota is whole>`.',
    schema: z.string().regex(/^"[^"]*";r=\d+;t=\d+$/),
  },
  'RateLimit-Policy': {
    description: 'The key\'s quota: `"<policy>";q=<requests>;w=<window in seconds>`.',
    schema: z.string().regex(/^"[^"]*";q=\d+;w=\d+$/),
  },
};

const required = (headers: Readonly<Record<string, HeaderDescription>>): Record<string, HeaderDescription> =>
  Object.fromEntries(Object.entries(headers).map(([name, header]) => [name, { ...header, required: true }]));

const WWW_AUTHENTICATE: Record<string, HeaderDescription> = {
  'WWW-Authenticate': { description: 'The Bearer challenge (`realm="longhaul"`, and the missing `scope` on a 403).', schema: z.string().regex(/^Bearer /), required: true },
};

/** `Retry-After` of a 429: when to try again. */
export const RETRY_AFTER: Record<string, HeaderDescription> = {
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: SecondsSchema, required: true },
};

/** What any route that needs an API key may answer besides its own answers. */
export const KEYED_RESPONSES: Readonly<Record<number, ResponseDescription>> = {
  401: problemResponse('`unauthenticated`: no API key, or one that is malformed, unknown, revoked or expired.', WWW_AUTHENTICATE),
  403: problemResponse('`insufficient_scope`: the key lacks the scope this operation needs (`requiredScope`).', WWW_AUTHENTICATE),
  429: problemResponse('`rate_limited`: the key sent more requests than its quota allows.', { ...RETRY_AFTER, ...required(RATE_LIMIT_HEADERS) }),
};

/** `400 malformed_id`. */
export const malformedId = (what: string): ResponseDescription => problemResponse(`\`malformed_id\`: the ${what} id is not a UUID.`);

/** `404 not_found`; another tenant's ids are not found either. */
export const notFound = (what: string): ResponseDescription => problemResponse(`\`not_found\`: no such ${what} (of this key's tenant).`);

/** `400 validation_failed` of a query, naming every bad parameter in `errors`. */
export const invalidQuery = problemResponse('`validation_failed`: a query parameter is invalid or unknown; `errors` names each.');

/** What the JSON body parser refuses before any handler runs. */
export const JSON_BODY_RESPONSES: Readonly<Record<number, ResponseDescription>> = {
  413: problemResponse('`payload_too_large`: the JSON body is larger than the api accepts.'),
  415: problemResponse('`unsupported_media_type`: the body is not `application/json`.'),
};

/** `Location` of an answer that created something, or names where to look. */
export const location = (what: string): Record<string, HeaderDescription> => ({
  Location: { description: what, schema: z.string().regex(/^\//), required: true },
});
