export * from './users.js';
export * from './outbox.js';
