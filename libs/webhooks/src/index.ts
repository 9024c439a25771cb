export * from './webhook-secret.policy';
export * from './webhook.signer';
export * from './webhook-url.errors';
export * from './webhook-url.policy';
