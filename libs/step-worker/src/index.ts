export * from './step-executor';
export * from './step-worker.options';
export * from './step-worker.migration';
export * from './step-worker.module';
export * from './step-worker.service';
export * from './step-request.handler';
export * from './step-result.publisher';
export * from './abortable-delay';
