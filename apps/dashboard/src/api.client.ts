import type {
  ApiKeyListView,
  ApiKeyView,
  CreateApiKeyRequest,
  CreatedApiKeyView,
  DashboardConfigView,
  ErrorCodes,
  DeadLetterListView,
  DeadLetterView,
  DlqMessageListView,
  DlqMessageView,
  JobDeliveriesView,
  JobListView,
  JobStatus,
  JobView,
  QueuesView,
  RotatedApiKeyView,
  UpdateApiKeyRequest,
} from '@longhaul/contracts';
import { bearerHeaders, reportKeyRefused, storedApiKey } from './api-key.session.js';

// The dashboard is served by the api, so every call goes to the same origin: absolute paths, no
// CORS. Every call carries the tab's API key as a bearer token; a `401` hands the matter to the
// key prompt (api-key.session.ts).

/** An answer the API refused (4xx, 5xx), with the problem's stable `code` when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A successful answer whose status matters to the caller (202 vs 200). */
export interface ApiAnswer<T> {
  status: number;
  body: T;
}

/** The filters and page of `GET /v1/jobs`. */
export interface JobListQuery {
  status?: JobStatus | null;
  type?: string | null;
  /** Jobs created at or after this moment (ISO 8601). */
  createdSince?: string | null;
  limit?: number;
  cursor?: string | null;
}

/** The filters of `GET /v1/dlq-messages`, as the page's URL keeps them. */
export interface DlqMessageQuery {
  topic: string | null;
  errorCode: string | null;
  /** Only the messages not replayed yet. */
  pending: boolean;
}

/** `json`: a request body, sent as JSON. */
async function call<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, json?: unknown): Promise<ApiAnswer<T>> {
  const key = storedApiKey();
  const headers: Record<string, string> = { accept: 'application/json', ...bearerHeaders(key), ...(json === undefined ? {} : { 'content-type': 'application/json' }) };
  const response = await fetch(path, { method, headers, body: json === undefined ? undefined : JSON.stringify(json), cache: 'no-store' });
  if (response.status === 401) reportKeyRefused(key);
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (!response.ok) {
    const problem = (typeof body === 'object' && body !== null ? body : {}) as { code?: unknown; detail?: unknown; title?: unknown };
    const code = typeof problem.code === 'string' ? problem.code : null;
    const detail = typeof problem.detail === 'string' ? problem.detail : typeof problem.title === 'string' ? problem.title : response.statusText;
    throw new ApiError(response.status, code, `${response.status} ${code ?? ''}${code ? ': ' : ''}${detail}`.trim());
  }
  return { status: response.status, body: body as T };
}

const get = async <T>(path: string): Promise<T> => (await call<T>('GET', path)).body;
const id = (value: string): string => encodeURIComponent(value);

/** `GET /v1/jobs`: a page of jobs, newest first. */
export function listJobs(query: JobListQuery): Promise<JobListView> {
  const params = new URLSearchParams();
  if (query.status) params.set('status', query.status);
  if (query.type) params.set('type', query.type);
  if (query.createdSince) params.set('createdSince', query.createdSince);
  if (query.limit) params.set('limit', String(query.limit));
  if (query.cursor) params.set('cursor', query.cursor);
  const text = params.toString();
  return get<JobListView>(text ? `/v1/jobs?${text}` : '/v1/jobs');
}

export const getJob = (jobId: string): Promise<JobView> => get<JobView>(`/v1/jobs/${id(jobId)}`);

/** `POST /v1/jobs/{id}/cancel`: 202 when this call cancelled the job, 200 when it was cancelled before. */
export const cancelJob = (jobId: string): Promise<ApiAnswer<JobView>> => call<JobView>('POST', `/v1/jobs/${id(jobId)}/cancel`);

export const jobDeliveries = (jobId: string): Promise<JobDeliveriesView> => get<JobDeliveriesView>(`/v1/jobs/${id(jobId)}/deliveries`);

/** Where the job's Server-Sent Events are (the feed follower opens it itself, with the key). */
export const jobEventsUrl = (jobId: string): string => `/v1/jobs/${id(jobId)}/events`;

export const queues = (): Promise<QueuesView> => get<QueuesView>('/v1/queues');

export const deadLetters = (): Promise<DeadLetterListView> => get<DeadLetterListView>('/v1/dead-letters?limit=200');

/** `POST /v1/dead-letters/{id}/replay`: 202 when this call started the replay, 200 when it was replayed before. */
export const replayDeadLetter = (deadLetterId: string): Promise<ApiAnswer<DeadLetterView>> =>
  call<DeadLetterView>('POST', `/v1/dead-letters/${id(deadLetterId)}/replay`);

/** The most `GET /v1/dlq-messages` returns at once. */
export const DLQ_MESSAGES_LIMIT = 200;

/** `GET /v1/dlq-messages`: the newest {@link DLQ_MESSAGES_LIMIT} dead-lettered messages that match, newest first. */
export function dlqMessages(query: DlqMessageQuery): Promise<DlqMessageListView> {
  const params = new URLSearchParams();
  if (query.topic) params.set('topic', query.topic);
  if (query.errorCode) params.set('errorCode', query.errorCode);
  if (query.pending) params.set('pending', 'true');
  params.set('limit', String(DLQ_MESSAGES_LIMIT));
  return get<DlqMessageListView>(`/v1/dlq-messages?${params}`);
}

/**
 * `POST /v1/dlq-messages/{id}/replay`: 202 when this call sent the message back to its topic,
 * 200 when it was replayed before (nothing sent); a message that cannot be replayed is a `409`.
 */
export const replayDlqMessage = (messageId: string): Promise<ApiAnswer<DlqMessageView>> =>
  call<DlqMessageView>('POST', `/v1/dlq-messages/${id(messageId)}/replay`);

/** `DELETE /v1/dlq-messages/{id}`: the api's record only; Kafka's copy expires with its topic. */
export const deleteDlqMessage = async (messageId: string): Promise<void> => {
  await call<null>('DELETE', `/v1/dlq-messages/${id(messageId)}`);
};

/** The most `GET /v1/api-keys` returns at once: the page shows that many of the newest. */
export const API_KEYS_LIMIT = 200;

/** `GET /v1/api-keys`: the tenant's newest {@link API_KEYS_LIMIT} keys (never their secrets). */
export const apiKeys = (): Promise<ApiKeyListView> => get<ApiKeyListView>(`/v1/api-keys?limit=${API_KEYS_LIMIT}`);

/** `POST /v1/api-keys`: the new key, with the key itself, which the api shows this once. */
export const createApiKey = async (request: CreateApiKeyRequest): Promise<CreatedApiKeyView> => (await call<CreatedApiKeyView>('POST', '/v1/api-keys', request)).body;

/**
 * `POST /v1/api-keys/{id}/rotate`, the old key revoked at once: the new key, with the key itself
 * (shown this once), and the old one as it is now.
 */
export const rotateApiKey = async (keyId: string): Promise<RotatedApiKeyView> => (await call<RotatedApiKeyView>('POST', `/v1/api-keys/${id(keyId)}/rotate`, {})).body;

/** `PATCH /v1/api-keys/{id}`: renames a key or gives it a new expiry; the key as it is now. */
export const updateApiKey = async (keyId: string, request: UpdateApiKeyRequest): Promise<ApiKeyView> => (await call<ApiKeyView>('PATCH', `/v1/api-keys/${id(keyId)}`, request)).body;

/** `POST /v1/api-keys/{id}/revoke`: the key as it is now (revoked; again: the first time). */
export const revokeApiKey = async (keyId: string): Promise<ApiKeyView> => (await call<ApiKeyView>('POST', `/v1/api-keys/${id(keyId)}/revoke`)).body;

/** The dashboard's settings from the api (`GET /dashboard/config.json`). */
export const dashboardConfig = (): Promise<DashboardConfigView> => get<DashboardConfigView>('/dashboard/config.json');

/**
 * Whether the api takes `key`: `refused` on a `401`, `accepted` on a success or a `403` (a valid
 * key without the scope to list jobs); any other answer is thrown, the key's worth unknown. Asks
 * for one job, the cheapest read there is.
 */
export async function checkApiKey(key: string): Promise<'accepted' | 'refused'> {
  const response = await fetch('/v1/jobs?limit=1', { headers: { accept: 'application/json', ...bearerHeaders(key) }, cache: 'no-store' });
  await response.body?.cancel();
  if (response.status === 401) return 'refused';
  if (response.ok || response.status === 403) return 'accepted';
  throw new ApiError(response.status, null, `${response.status} ${response.statusText}`.trim());
}

/** A readable line for any error a call may throw. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return `The api did not answer: ${error.message}`;
  return String(error);
}

/** The code of the api's answer to a good key without the scope a route needs (contracts' `ErrorCodes`). */
const INSUFFICIENT_SCOPE: (typeof ErrorCodes)['insufficientScope'] = 'insufficient_scope';

/**
 * Whether `error` is the api's `403 insufficient_scope`: the key is good but lacks the scope the
 * route needs. Its scopes do not change while the tab holds it, so asking again would only fail again.
 */
export function isScopeRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 403 && error.code === INSUFFICIENT_SCOPE;
}

/**
 * What a key without the `admin` scope is told, once, instead of the api's refusal alone: `what`
 * needs the scope ("This page", "Replaying"), and an operator's key would let the person `instead`.
 */
export function needsAdminText(what: string, refusal: ApiError, instead: string): string {
  return `${what} needs an API key with the admin scope; the key in use does not have it (${refusal.message}). Sign out and enter an operator's key to ${instead}.`;
}
