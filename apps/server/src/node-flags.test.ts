import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from './node-flags.js';

describe('SERVER_NODE_FLAGS', () => {
  it('are the flags `npm start` runs the built server with', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.serve).toBe(['node', ...SERVER_NODE_FLAGS, 'dist/server.js'].join(' '));
  });

  it('are flags this node accepts', () => {
    expect(process.allowedNodeEnvironmentFlags.has(SERVER_NODE_FLAGS[0]!.split('=')[0]!)).toBe(true);
  });
});
