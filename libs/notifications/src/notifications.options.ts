/** Options of `NotificationsModule.forRoot`. */
export interface NotificationsOptions {
  /** Record each notification in `notifier.effect_ledger`. */
  effectLedger: boolean;
}

export const NOTIFICATIONS_OPTIONS = Symbol('longhaul.notificationsOptions');
