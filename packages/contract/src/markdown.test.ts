import { describe, expect, it } from 'vitest';
import { reportTextHtml } from './markdown.js';

describe('reportTextHtml', () => {
  it('renders CommonMark: paragraphs, emphasis, lists and links', () => {
    expect(reportTextHtml('Rates **by payer**.\n\n- one\n- two\n\n[CMS](https://www.cms.gov/)')).toBe(
      '<p>Rates <strong>by payer</strong>.</p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<p><a href="https://www.cms.gov/">CMS</a></p>',
    );
  });

  it('shows HTML written in the definition as text, never as markup', () => {
    const html = reportTextHtml('<script>alert(1)</script>\n\nHi <img src=x onerror="alert(2)">');
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(2)&quot;&gt;');
  });

  it('drops the target of a link with a dangerous protocol', () => {
    for (const target of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,<b>x</b>', 'vbscript:x']) {
      const html = reportTextHtml(`[open](${target}) ![img](${target})`);
      expect(html).not.toMatch(/javascript:|data:|vbscript:/i);
      expect(html).toContain('<a href="">open</a>');
    }
  });
});
