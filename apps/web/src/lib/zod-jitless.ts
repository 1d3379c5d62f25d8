import { config } from 'zod/v4/core';

// Zod probes `new Function` to decide whether it may compile fast parsers; under our CSP (no
// 'unsafe-eval') the probe is refused and the browser logs a CSP violation even though Zod catches
// it. Parsing without compiled code is fast enough for forms. Imported first by every module that
// builds schemas (the contract's included), so it stays out of pages that validate nothing.
config({ jitless: true });
