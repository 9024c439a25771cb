export * from './media-probe';
export * from './child-process.runner';
