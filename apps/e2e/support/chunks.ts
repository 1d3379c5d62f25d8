/**
 * Whether a script path is the build's chunk of that name (`/assets/settings-9MemzZyu.js` is the
 * chunk `settings`): route chunks are named after their route module (src/routes/settings.tsx), other
 * chunks after their module, each with an 8-character hash. A name that matches no chunk of the build
 * would make a "never loads" check pass by itself, so the checks prove their names on a page that
 * does load them.
 */
export function isChunk(scriptPath: string, name: string): boolean {
  return new RegExp(`/assets/${name}-[\\w-]{8}\\.js$`).test(scriptPath);
}

/** The chunks of the signed-in areas and what only they use. */
export const SIGNED_IN_CHUNKS = [
  'admin',
  'settings',
  'studio-app',
  'query-client',
  'tenant-switcher',
  'stripe-card-field',
];
