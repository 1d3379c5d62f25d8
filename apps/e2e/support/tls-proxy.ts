import { execFile, spawn } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './app-server.js';
import { stopperFor, waitUntilReady } from './child-process.js';

const run = promisify(execFile);

export interface TlsProxy {
  /** https://127.0.0.1:port */
  baseUrl: string;
  /**
   * Chromium's `--ignore-certificate-errors-spki-list` value for the proxy's self-signed
   * certificate: with it the browser trusts this one certificate, and no other, as a CA-signed one.
   */
  spkiHash: string;
  stop(): Promise<void>;
}

/** nginx from Debian's packages (nginx-light), wherever a non-root PATH leaves it out. */
function nginxBinary(): string {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx']) {
    if (existsSync(candidate)) return candidate;
  }
  throw new Error('nginx is not installed (Debian: apt-get install nginx-light)');
}

/**
 * nginx on a free loopback port terminating TLS with HTTP/2, in front of `upstream` (an http://
 * origin), as a deployment serves the app: browsers speak HTTP/2 only over TLS. The certificate is
 * self-signed, made here with openssl for 127.0.0.1, and thrown away with the rest on stop().
 * It serves `/assets/` from `staticRoot` (the web build) itself, as deploy/nginx does, so the
 * server is not busy sending scripts while a page loads.
 */
export async function startTlsProxy(upstream: string, staticRoot: string): Promise<TlsProxy> {
  const dir = mkdtempSync(path.join(tmpdir(), 'dp-tls-proxy-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  const publicKey = new X509Certificate(readFileSync(cert)).publicKey.export({ type: 'spki', format: 'der' });
  const spkiHash = createHash('sha256').update(publicKey).digest('base64');

  const port = await freePort();
  const upstreamHost = new URL(upstream).host;
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
daemon off;
pid nginx.pid;
error_log stderr warn;
events { worker_connections 256; }
http {
    access_log off;
    # Types of the files served from disk (/assets/); the server types its own answers.
    types {
        application/javascript js mjs;
        text/css css;
        image/svg+xml svg;
        application/json json;
    }
    client_body_temp_path temp_body;
    proxy_temp_path temp_proxy;
    fastcgi_temp_path temp_fastcgi;
    uwsgi_temp_path temp_uwsgi;
    scgi_temp_path temp_scgi;
    upstream app {
        server ${upstreamHost};
        keepalive 16;
    }
    server {
        # Debian 12's nginx (1.22) predates the \`http2 on;\` directive.
        listen 127.0.0.1:${port} ssl http2;
        ssl_certificate ${cert};
        ssl_certificate_key ${key};
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-Proto https;
        proxy_buffering off;
        location / {
            proxy_pass http://app;
        }
        # As deploy/nginx serves them: the hashed build output straight from disk.
        location /assets/ {
            root "${staticRoot}";
            gzip_static on;
            try_files $uri @app;
            add_header Cache-Control "public, max-age=31536000, immutable";
        }
        location @app {
            proxy_pass http://app;
        }
    }
}
`,
  );
  const child = spawn(nginxBinary(), ['-p', `${dir}/`, '-c', path.join(dir, 'nginx.conf'), '-e', 'stderr'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `https://127.0.0.1:${port}`;
  const stop = stopperFor(child, 'SIGQUIT', () => rmSync(dir, { recursive: true, force: true }));
  // Accepting connections is enough: the first request through it is the browser's.
  const accepting = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  await waitUntilReady(child, stop, accepting, { what: `nginx on ${port}`, timeoutMs: 15_000, intervalMs: 100 });
  return { baseUrl, spkiHash, stop };
}
