export * from './work-item';
export * from './work-item.sql';
export * from './work-queue.repository';
export * from './work-queue-runner.options';
export * from './work-queue.runner';
export * from './run-abort.reasons';
export * from './run-outcome.policy';
