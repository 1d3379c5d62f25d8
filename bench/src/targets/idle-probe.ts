import { send, startTargetRuntime } from './target-runtime.js';

/**
 * Does nothing but watch its own event loop while a scenario runs: the delay it sees is what the
 * machine's CPU contention alone inflicts, the baseline the server's loop delay is judged against.
 */
startTargetRuntime({ close: async () => undefined });
// The IPC channel (with the runtime's message listener) keeps the process alive until SIGTERM.
await send({ type: 'ready', port: 0 });
