/** The api's notification settings (`WEBHOOK_*` of its config). */
export interface ApiNotificationsOptions {
  /** Derives every webhook signing secret; the notifier must have the same (`WEBHOOK_SIGNING_KEY`). */
  signingKey: string;
  /** Accept `http:` webhook URLs (local development). */
  allowHttp: boolean;
  /** Accept webhook URLs on loopback and private addresses (local development, tests). */
  allowPrivateAddresses: boolean;
}
