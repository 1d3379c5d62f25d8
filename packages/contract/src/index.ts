export * from './common.js';
export * from './fields.js';
export * from './auth.js';
export * from './users.js';
export * from './permissions.js';
export * from './contact.js';
export * from './billing.js';
