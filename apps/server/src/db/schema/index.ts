export * from './users.js';
export * from './outbox.js';
export * from './authz.js';
export * from './audit.js';
export * from './tenants.js';
export * from './contact.js';
export * from './billing.js';
export * from './row-counts.js';
