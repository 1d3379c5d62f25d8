import net from 'node:net';

export interface RawAnswer {
  /** The first answer's status, or 0 if the connection closed without one. */
  status: number;
  /** Its status line and headers, lower-cased. */
  head: string;
  /** Its body parsed as JSON, when the connection closed after it (`until: 'close'`) and it had one. */
  body: unknown;
  /** From the first byte written to the moment the request resolved. */
  ms: number;
}

export interface RawRequestOptions {
  /** Written after `head`, one every `gapMs`, while the connection stays open. */
  chunks?: (string | Buffer)[];
  gapMs?: number;
  /** Resolve once the answer's head has arrived, or (the default) once the server closes the connection. */
  until?: 'head' | 'close';
  /** No answer by then fails the request. */
  timeoutMs?: number;
}

/**
 * A request written on a socket as it is, for what `inject()` and HTTP clients cannot send: what
 * Node's parser refuses (headers too large, a malformed request line) and bodies trickled in.
 */
export function rawRequest(port: number, head: string, options: RawRequestOptions = {}): Promise<RawAnswer> {
  const { chunks = [], gapMs = 0, until = 'close', timeoutMs = 30_000 } = options;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const [answerHead = '', rest = ''] = received.split('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(answerHead)?.[1];
      const bodyText = until === 'close' && length !== undefined ? rest.slice(0, Number(length)) : '';
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answerHead)?.[1] ?? 0),
        head: answerHead.toLowerCase(),
        body: bodyText ? JSON.parse(bodyText) : undefined,
        ms: performance.now() - started,
      });
    };
    socket.on('data', (data) => {
      received += data.toString('latin1');
      if (until === 'head' && received.includes('\r\n\r\n')) finish();
    });
    socket.on('close', finish);
    socket.on('error', () => undefined);
    socket.setTimeout(timeoutMs, () => {
      settled = true;
      socket.destroy();
      reject(new Error('no answer in time'));
    });
    socket.write(head);
    let next = 0;
    const writeNext = () => {
      if (next >= chunks.length || socket.destroyed) return;
      socket.write(chunks[next]!);
      next += 1;
      timer = setTimeout(writeNext, gapMs);
    };
    timer = setTimeout(writeNext, gapMs);
  });
}
