export * from './address.policy';
export * from './guarded.agent';
