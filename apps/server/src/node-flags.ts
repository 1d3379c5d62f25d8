/**
 * The V8 flags the server runs with, wherever it is started: `npm start` (apps/server's `serve`
 * script, kept equal to this by node-flags.test.ts), the fleet launcher and the bench's targets.
 *
 * A larger young generation (V8's default caps each semi-space at 16 MiB on this heap size): every
 * request allocates some 40 KB that dies with it, and with small semi-spaces a scavenge comes every
 * ~25 ms under load, so the objects of the requests in flight survive two of them and are promoted;
 * the old space then fills at ~100 MB/s and major collections take a fifth of a core. The young
 * generation only grows under allocation pressure, so an idle server keeps its small heap
 * (docs/decisions/033-server-runtime-and-log-redaction.md).
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
