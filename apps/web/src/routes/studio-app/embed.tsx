import { Suspense } from 'react';
import { ScreenLoading } from '../../features/studio/studio-area.js';
import { EmbedSettingsPage } from '../../features/studio/sharing/embed-settings-page.js';

/** /studio/embed: the tenant's embedding settings. */
export default function EmbedSettingsRoute() {
  return (
    <Suspense fallback={<ScreenLoading>Loading the embedding settings...</ScreenLoading>}>
      <EmbedSettingsPage />
    </Suspense>
  );
}
