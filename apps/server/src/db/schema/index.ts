export * from './audit.js';
export * from './customer.js';
export * from './job.js';
export * from './message.js';
export * from './org.js';
export * from './tenancy.js';
export * from './user.js';
