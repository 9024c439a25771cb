import pino, { type Logger } from 'pino';
import { activeTraceIds } from './trace-context';

export type { Logger } from 'pino';

/**
 * A structured JSON logger for one service. Every line carries the service name and, when a
 * span is active, its trace and span id, so a log line can be found from a trace and back.
 */
export function createLogger(service: string, level: string): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const ids = activeTraceIds();
      return ids ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
    },
  });
}
