export * from './users.js';
export * from './outbox.js';
export * from './billing.js';
