export * from './wait-for';
export * from './stack.harness';
export * from './docker-stack.harness';
export * from './service.process';
export * from './services.harness';
export * from './api.client';
export * from './kafka.probe';
export * from './db.probe';
