/**
 * `GET /dashboard/config.json`: what the web dashboard needs to know about its deployment that
 * its own files cannot say. The api builds it from its configuration at start.
 */
export interface DashboardConfigView {
  /** Base URL of the Jaeger UI, without a trailing `/`; a job's trace is `<jaegerUrl>/trace/<traceId>`. */
  jaegerUrl: string;
}
