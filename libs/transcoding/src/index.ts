export * from './output-keys.policy';
export * from './placeholder-transcode.executor';
export * from './transcoder.migrations';
