import { createTheme, ThemeProvider, type Theme } from '@mui/material/styles';
import type { ReactNode } from 'react';

// MUI's typing for a theme with CSS variables (its documented augmentation): `theme.vars`, and the
// provider's props for them.
declare module '@mui/material/styles' {
  interface CssThemeVariables {
    enabled: true;
  }
}

let theme: Theme | undefined;

/**
 * The app's theme around `children`.
 *
 * `noSsr`: the theme provider reads the stored scheme in its first render, also when hydrating,
 * instead of rendering "no scheme" first and setting it in an effect. That effect changed the
 * scheme context after hydration, which made React hydrate all the rest of the page at once, in one
 * long task. Safe because nothing renders differently by scheme: the CSS variables follow the class
 * /pre-paint.js puts on <html> before the first paint (theme-toggle.tsx).
 */
export function AppThemeProvider({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider
      theme={appTheme()}
      defaultMode="system"
      disableTransitionOnChange
      noSsr
      disableStyleSheetGeneration={pageHasThemeVariables()}
    >
      {children}
    </ThemeProvider>
  );
}

let themeVariablesInPage: boolean | undefined;

/**
 * Whether the page's HTML already brought the theme's CSS variables, both schemes: every page is
 * prerendered with them (entry.server.tsx puts Emotion's styles in <head>), and they never change,
 * since a scheme is chosen by the class on <html>. Then the provider need not build and serialise
 * the 22 KB sheet again while the page hydrates (~4 ms of script, four times that under Lighthouse's
 * mobile emulation). Read from the styles in effect, so a page without them (the development server)
 * still gets the sheet. At build time there is no document, and the sheet is rendered into the page.
 */
function pageHasThemeVariables(): boolean {
  if (typeof document === 'undefined') return false;
  themeVariablesInPage ??=
    getComputedStyle(document.documentElement).getPropertyValue(`--${appTheme().cssVarPrefix}-palette-primary-main`) !==
    '';
  return themeVariablesInPage;
}

/** The app's theme, created on first use (both colour schemes as CSS variables). */
export function appTheme(): Theme {
  theme ??= createAppTheme();
  return theme;
}

/**
 * Light and dark schemes as CSS variables, switched by a class on <html> (set before first paint
 * by app/pre-paint.js, so prerendered pages never flash the wrong scheme). `nativeColor`: MUI's
 * derived colours (hover tints, borders, contrast text) are CSS color-mix() and relative colours
 * instead of colour arithmetic in JavaScript, which halves the time createTheme takes (decision 039).
 */
function createAppTheme(): Theme {
  return createTheme({
    cssVariables: { colorSchemeSelector: 'class', nativeColor: true },
    colorSchemes: {
      light: {
        palette: {
          primary: { main: '#1d4ed8' },
          secondary: { main: '#7c3aed' },
          // Darker than MUI's red: destructive text buttons stay above 4.5:1 on a selected card's tint.
          error: { main: '#b91c1c' },
          background: { default: '#f8fafc', paper: '#ffffff' },
        },
      },
      dark: {
        // The hover shades (`dark`) are given, as MUI's JavaScript derived them (main darkened by
        // 30 %): derived in CSS (nativeColor) they came out darker, and dark text on a hovered
        // button fell under 4.5:1.
        palette: {
          primary: { main: '#93c5fd', dark: '#678ab1' },
          secondary: { main: '#c4b5fd', dark: '#897fb1' },
          // Light enough for red text on the dark paper, and for dark text on a red button.
          error: { main: '#fca5a5', dark: '#b07474' },
          // A filled error alert (the toasts) sits on that shade: dark text on it is 5.6:1, where
          // the white MUI picks (contrast threshold 3) was 3.8:1.
          // The filled success alert (a toast) likewise: white on its green was 4.2:1.
          // The standard (not filled) error alert, a failure to load, came out black: a dark red instead.
          Alert: {
            errorFilledColor: 'rgba(0, 0, 0, 0.87)',
            successFilledColor: 'rgba(0, 0, 0, 0.87)',
            errorStandardBg: '#2b1416',
          },
          background: { default: '#0b1220', paper: '#111a2e' },
        },
      },
    },
    typography: {
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      h1: { fontSize: '2.5rem', fontWeight: 700, lineHeight: 1.2 },
      h2: { fontSize: '1.9rem', fontWeight: 700, lineHeight: 1.25 },
      h3: { fontSize: '1.4rem', fontWeight: 600, lineHeight: 1.3 },
      button: { textTransform: 'none', fontWeight: 600 },
    },
    shape: { borderRadius: 10 },
    components: {
      // Focus and presses are shown by CSS, the same on every page: the marketing pages run no
      // script, so MUI's ripple (which also draws its keyboard focus) never showed there, and where
      // the app runs, the ripple's render on each press was about half of what a press cost (docs/
      // decisions/059-presses-without-the-ripple.md). The browser's `:focus-visible` draws the ring;
      // inside a menu, list or tab strip it sits within the item, where the menu's edge cannot clip
      // it. A press tints the control with its own text colour.
      MuiButtonBase: {
        defaultProps: { disableRipple: true },
        styleOverrides: {
          root: ({ theme }) => ({
            '&:focus-visible': { outline: `2px solid ${theme.vars.palette.primary.main}`, outlineOffset: 2 },
            '.MuiList-root &:focus-visible, .MuiTabs-root &:focus-visible': { outlineOffset: -2 },
            '&:active:not(:disabled, [aria-disabled="true"])': {
              backgroundImage: 'linear-gradient(color-mix(in srgb, currentColor 14%, transparent) 0 0)',
            },
          }),
        },
      },
    },
  });
}
