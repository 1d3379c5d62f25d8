// The entry of the SPA shell (index.html), for every route that is not prerendered: it starts the
// app. (`/` never gets here: /color-scheme.js sends it to /studio first.)
void import('./boot.js').then(({ startApp }) => startApp());
