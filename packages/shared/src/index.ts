import './zod-locale.js';

export * from './account.js';
export * from './auth.js';
export * from './call.js';
export * from './customer.js';
export * from './dashboard.js';
export * from './department.js';
export * from './envelope.js';
export * from './glossary.js';
export * from './menu.js';
export * from './message.js';
export * from './org.js';
export * from './permissions.js';
export * from './role.js';
export * from './staff.js';
export * from './station.js';
export * from './validators.js';
