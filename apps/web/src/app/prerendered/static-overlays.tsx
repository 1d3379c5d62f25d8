import type { EmotionCache } from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { ThemeProvider } from '@mui/material/styles';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { overlayIds, staticOverlay } from '../../lib/prerendered-hooks.js';
import { loadNavDrawer, loadPopupMenu } from '../layout/lazy-overlays.js';
import { NAV_SECTIONS } from '../layout/navigation.js';
import { accountMenuEntries } from '../layout/user-menu.js';
import { appTheme } from '../theme.js';

const ignore = () => undefined;

/**
 * The top bar's menus and drawer as the app renders them when open, each in a <template> for after
 * #root (inert until used): a prerendered page shows and drives them with a few lines of script
 * (overlays.ts), so opening a menu needs neither React nor MUI's code, only their markup and CSS
 * (which lands in `cache`).
 * Build time only (entry-server.tsx). The account menu is the signed-out one: a signed-in visitor
 * gets the app. Its own useId prefix keeps its ids apart from the page's.
 */
export async function renderStaticOverlays(url: string, cache: EmotionCache): Promise<string> {
  const [{ PopupMenu }, { NavDrawer }] = await Promise.all([loadPopupMenu(), loadNavDrawer()]);
  return renderToString(
    <CacheProvider value={cache}>
      <StaticRouter location={url}>
        <ThemeProvider theme={appTheme()} defaultMode="system">
          {NAV_SECTIONS.map((section, index) => (
            <template key={section.label} {...staticOverlay(overlayIds.navMenu(index))}>
              <PopupMenu
                id={overlayIds.navMenu(index)}
                anchor={null}
                entries={section.items}
                onClose={ignore}
                inPlace
              />
            </template>
          ))}
          <template {...staticOverlay(overlayIds.accountMenu)}>
            <PopupMenu
              id={overlayIds.accountMenu}
              anchor={null}
              entries={accountMenuEntries()}
              onClose={ignore}
              inPlace
            />
          </template>
          <template {...staticOverlay(overlayIds.navDrawer)}>
            <NavDrawer open onClose={ignore} inPlace />
          </template>
        </ThemeProvider>
      </StaticRouter>
    </CacheProvider>,
    { identifierPrefix: 'static-' },
  );
}
