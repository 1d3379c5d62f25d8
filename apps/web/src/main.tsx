import { importApp } from './load-app.js';

// The entry of the SPA shell (index.html), for every route that is not prerendered: it starts the
// app. (`/` never gets here: /pre-paint.js sends it to /studio first.)
void importApp().then((startApp) => startApp());
