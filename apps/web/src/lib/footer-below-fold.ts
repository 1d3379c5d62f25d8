/**
 * The attribute a page's content carries to keep the site footer just below the fold (the layout
 * reads it with `:has()`): a tab panel that loads and grows then moves nothing in view.
 */
export const FOOTER_BELOW_FOLD = 'data-footer-below-fold';
