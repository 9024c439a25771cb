export * from './output-keys.policy';
export * from './transcode-lanes.policy';
export * from './placeholder-transcode.executor';
export * from './simulated-transcode.executor';
export * from './ffmpeg-transcode.options';
export * from './ffmpeg-transcode.executor';
export * from './transcode-outputs.publisher';
export * from './transcoder.migrations';
