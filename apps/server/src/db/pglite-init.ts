import { createPglite } from './client.js';

/**
 * Run by `openPglite` as a child process: creates the embedded cluster in the data folder named by
 * the first argument, then exits, and the memory initdb took goes back with the process.
 */
const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: pglite-init <data folder>');
const client = await createPglite({ dataDir });
await client.close();
