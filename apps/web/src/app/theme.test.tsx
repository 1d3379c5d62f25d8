import { render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The rules in the document's style elements that define the theme's primary colour variable. */
function themeVariableRules(): string[] {
  return [...document.querySelectorAll('style')]
    .flatMap((style) => [...(style.sheet?.cssRules ?? [])].map((rule) => rule.cssText))
    .filter((text) => text.includes('--mui-palette-primary-main:'));
}

describe('the theme provider', () => {
  beforeEach(() => vi.resetModules());
  afterEach(() => {
    document.documentElement.style.removeProperty('--mui-palette-primary-main');
    for (const style of document.querySelectorAll('style')) style.remove();
  });

  it('writes the variables of both schemes when the page came without them', async () => {
    const { AppThemeProvider } = await import('./theme.js');
    render(<AppThemeProvider>page</AppThemeProvider>);
    const rules = themeVariableRules();
    // The light scheme's and the dark one's.
    expect(rules.some((rule) => rule.startsWith(':root'))).toBe(true);
    expect(rules.some((rule) => rule.includes('.dark'))).toBe(true);
  });

  it('leaves them to the page when its prerendered styles define them already', async () => {
    // As a prerendered page's <head> does (entry.server.tsx); what counts is that they apply.
    document.documentElement.style.setProperty('--mui-palette-primary-main', '#1d4ed8');
    const { AppThemeProvider } = await import('./theme.js');
    const { getByText } = render(<AppThemeProvider>page</AppThemeProvider>);
    expect(getByText('page')).toBeInTheDocument();
    expect(themeVariableRules()).toEqual([]);
  });
});
