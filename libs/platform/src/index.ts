export * from './service.tokens';
export * from './pino-nest.logger';
export * from './health.controller';
export * from './core.module';
export * from './service.bootstrap';
export * from './http/problem';
export * from './http/problem-details.filter';
export * from './http/json-body.middleware';
