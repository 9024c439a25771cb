export * from './output-keys.policy';
export * from './transcode-lanes.policy';
export * from './placeholder-transcode.executor';
export * from './simulated-transcode.executor';
export * from './transcoder.migrations';
