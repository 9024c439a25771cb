export * from './thumbnail-keys.policy';
export * from './placeholder-thumbnail.executor';
export * from './simulated-thumbnail.executor';
export * from './thumbnailer.migrations';
