import { ArgumentsHost, Catch, HttpException, Inject, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pathOf } from './fastify.adapter';
import { ErrorCodes, LonghaulError } from '@longhaul/contracts';
import type { Logger } from '@longhaul/telemetry';
import { LOGGER } from '../service.tokens';
import { methodNotAllowed } from './allowed-methods';
import { PROBLEM_CONTENT_TYPE, ProblemError, problemTitle, problemType, type ProblemDetails } from './problem';

const CODES_BY_STATUS: Record<number, string> = {
  400: ErrorCodes.validationFailed,
  404: ErrorCodes.notFound,
  413: ErrorCodes.payloadTooLarge,
  415: ErrorCodes.unsupportedMediaType,
  503: 'not_ready',
};

/** HTTP status of domain errors that reach the edge, by stable code. */
const STATUS_BY_CODE: Record<string, number> = {
  [ErrorCodes.notFound]: 404,
  [ErrorCodes.malformedId]: 400,
  [ErrorCodes.validationFailed]: 400,
  [ErrorCodes.idempotencyKeyInvalid]: 400,
  [ErrorCodes.idempotencyKeyReused]: 422,
  [ErrorCodes.jobFinished]: 409,
  [ErrorCodes.overloaded]: 429,
  // Media intake: uploads and job sources. A refused input is the client's to fix (422).
  [ErrorCodes.payloadTooLarge]: 413,
  [ErrorCodes.unsupportedMediaType]: 415,
  [ErrorCodes.uploadNotFound]: 422,
  [ErrorCodes.sourceUnreachable]: 422,
  [ErrorCodes.sourceAddressForbidden]: 422,
  [ErrorCodes.sourceTooLarge]: 422,
  [ErrorCodes.sourceInvalidScheme]: 422,
  [ErrorCodes.mediaFormatRefused]: 422,
  [ErrorCodes.mediaEmpty]: 422,
  [ErrorCodes.mediaUnreadable]: 422,
  [ErrorCodes.mediaNoVideo]: 422,
  [ErrorCodes.mediaInvalid]: 422,
  // Notifications: a webhook URL Longhaul will not call is a malformed request (400).
  [ErrorCodes.webhookUrlForbidden]: 400,
};

/**
 * Turns every error into an `application/problem+json` response (RFC 9457). Known errors keep
 * their status and code; anything unexpected is a 500 whose details stay in the log, never in
 * the response.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const response = http.getResponse<FastifyReply>();
    const { problem, headers } = this.toProblem(exception, request);
    if (problem.status >= 500) this.logger.error({ err: exception, path: pathOf(request.url) }, 'request failed');
    void response.status(problem.status).headers(headers).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problem));
  }

  private toProblem(exception: unknown, request: FastifyRequest): { problem: ProblemDetails; headers: Record<string, string> } {
    const instance = request.url;
    // No route matched: that is the answer, whatever else the request got wrong. Fastify reads the
    // body of a method that may carry one (`POST`, `QUERY`…) before it hands the request to the
    // not-found handler, so a missing or unknown `Content-Type` or a bad body would fail first.
    if (request.routeOptions.url === undefined && isClientError(exception)) return this.noRoute(request);
    if (exception instanceof ProblemError) return { problem: { ...exception.problem, instance }, headers: exception.headers };
    if (exception instanceof LonghaulError && STATUS_BY_CODE[exception.code]) {
      const status = STATUS_BY_CODE[exception.code]!;
      // Details (e.g. the state of a job that cannot change) become extension members.
      return {
        problem: { ...exception.details, type: problemType(exception.code), title: problemTitle(exception.code), status, code: exception.code, detail: exception.message, instance },
        headers: {},
      };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404 && request.routeOptions.url === undefined) return this.noRoute(request);
      const code = CODES_BY_STATUS[status] ?? (status >= 500 ? ErrorCodes.internal : `http_${status}`);
      const detail = exception.message;
      const body = exception.getResponse();
      // Readiness failures carry their per-dependency checks; keep them for the operator.
      const checks = typeof body === 'object' && body !== null && 'checks' in body ? { checks: (body as { checks: unknown }).checks } : {};
      return {
        problem: { type: problemType(code), title: problemTitle(code), status, code, detail, instance, ...checks },
        headers: {},
      };
    }
    return {
      problem: { type: problemType(ErrorCodes.internal), title: problemTitle(ErrorCodes.internal), status: 500, code: ErrorCodes.internal, instance },
      headers: {},
    };
  }

  /**
   * Nothing answered the request: `405` with `Allow` when the path has routes for other methods
   * only (RFC 9110, section 15.5.6), so a client that sent the wrong method is told so; `404`
   * otherwise, also when a route of this method handed over to the not-found handler.
   */
  private noRoute(request: FastifyRequest): { problem: ProblemDetails; headers: Record<string, string> } {
    const path = pathOf(request.url);
    const allowed = methodNotAllowed(request.server, request.method, path);
    const { problem } = allowed
      ? ProblemError.of(405, ErrorCodes.methodNotAllowed, `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`)
      : ProblemError.of(404, ErrorCodes.notFound, `no route ${request.method} ${path}`);
    return { problem: { ...problem, instance: request.url }, headers: allowed ? { allow: allowed.join(', ') } : {} };
  }
}

/** A refusal of the request itself (4xx), as opposed to a failure of the server. */
function isClientError(exception: unknown): boolean {
  const status = exception instanceof ProblemError ? exception.problem.status : exception instanceof HttpException ? exception.getStatus() : 500;
  return status >= 400 && status < 500;
}
