import { describe, expect, it } from 'vitest';
import { holdAppScripts } from './finish-build.js';

// The tail of a page as React Router's prerendering writes it (trimmed): preload links in <head>, the
// inline context, the module script that starts the app, the inline data.
const page = [
  '<html><head><link rel="modulepreload" href="/assets/manifest-1.js"/>',
  '<link rel="modulepreload" href="/assets/entry.client-2.js"/></head><body><form></form>',
  '<script>window.__reactRouterContext = {};</script>',
  '<script type="module" async="">import "/assets/manifest-1.js";\nimport("/assets/entry.client-2.js");</script>',
  '<script>window.__reactRouterContext.streamController.close();</script></body></html>',
].join('');

describe('holdAppScripts (decision 058)', () => {
  it('moves the preload links and the module script into a template, in the script’s place', () => {
    const held = holdAppScripts(page, '/contact');
    expect(held).toBe(
      [
        '<html><head></head><body><form></form>',
        '<script>window.__reactRouterContext = {};</script>',
        '<template data-app-scripts=""><link rel="modulepreload" href="/assets/manifest-1.js"/>',
        '<link rel="modulepreload" href="/assets/entry.client-2.js"/>',
        '<script type="module" async="">import "/assets/manifest-1.js";\nimport("/assets/entry.client-2.js");</script>',
        '</template>',
        '<script>window.__reactRouterContext.streamController.close();</script></body></html>',
      ].join(''),
    );
  });

  it('fails the build when the page is not as React Router used to write it', () => {
    expect(() => holdAppScripts('<html><body><p>no scripts</p></body></html>', '/contact')).toThrow(
      /\/contact: expected React Router's preload links and one module script/,
    );
  });
});
