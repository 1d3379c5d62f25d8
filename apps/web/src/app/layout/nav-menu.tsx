import KeyboardArrowDown from '@mui/icons-material/KeyboardArrowDown';
import Button from '@mui/material/Button';
import { Suspense, useId, useState } from 'react';
import { LazyPopupMenu, loadPopupMenu } from './lazy-overlays.js';
import type { NavSection } from './navigation.js';

/** One top-bar menu (Platform, Solutions & Services, Company). */
export function NavMenu({ section, current }: { section: NavSection; current: boolean }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  return (
    <>
      <Button
        color="inherit"
        aria-haspopup="true"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        aria-current={current ? 'true' : undefined}
        endIcon={<KeyboardArrowDown />}
        onPointerEnter={() => void loadPopupMenu()}
        onFocus={() => void loadPopupMenu()}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={current ? { textDecoration: 'underline', textUnderlineOffset: 6 } : undefined}
      >
        {section.label}
      </Button>
      {anchor ? (
        <Suspense fallback={null}>
          <LazyPopupMenu
            id={menuId}
            anchor={anchor}
            entries={section.items.map((item) => ({ label: item.label, to: item.to }))}
            onClose={() => setAnchor(null)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
