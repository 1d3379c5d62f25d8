import { config } from 'zod/v4/core';

// Imported first by every module of the contract that builds schemas, and by the web app's own:
// zod decides when a schema is built whether it may compile a fast parser, probing `new Function`.
// Under the web app's CSP (no 'unsafe-eval') the probe is refused and the browser logs a violation
// although zod catches it, so in a browser the schemas parse without compiled code (fast enough for
// forms). The server keeps the compiled parsers. Here rather than in the web app's boot code, which
// then carried zod's core on every page to set one flag.
if ('document' in globalThis) config({ jitless: true });
