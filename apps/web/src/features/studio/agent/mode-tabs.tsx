import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';

export type AgentMode = 'ask' | 'build';

/**
 * "Ask in words" and "Build by hand", shown only when a question can be asked (a model, a tenant):
 * a module of its own, so the page's first load without them (a fresh `npm start`) carries no tabs.
 */
export default function ModeTabs({
  mode,
  onChange,
  ids,
}: {
  mode: AgentMode;
  onChange: (mode: AgentMode) => void;
  ids: { tabs: string; panel: string };
}) {
  return (
    <Tabs value={mode} onChange={(_, value: AgentMode) => onChange(value)} aria-label="Ask or build">
      <Tab label="Ask in words" value="ask" id={`${ids.tabs}-ask`} aria-controls={ids.panel} />
      <Tab label="Build by hand" value="build" id={`${ids.tabs}-build`} aria-controls={ids.panel} />
    </Tabs>
  );
}
