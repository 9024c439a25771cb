export * from './work-item';
export * from './work-item.sql';
export * from './work-queue.repository';
export * from './work-queue.runner';
