import type { DeliveryAttemptView } from '@longhaul/contracts';

/** What one send reported, before it is stamped with its attempt number and time. */
export interface AttemptResult {
  outcome: DeliveryAttemptView['outcome'];
  statusCode: number | null;
  error: { code: string; message: string } | null;
  /** A receiver's `Retry-After`, in ms, when it sent one. */
  retryAfterMs: number | null;
}

export const DELIVERED: AttemptResult = { outcome: 'delivered', statusCode: null, error: null, retryAfterMs: null };
