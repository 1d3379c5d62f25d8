/**
 * An area's own path ('/settings') and any segment below it that is not a tab: the area's tab strip
 * (components/routed-tabs.tsx) sends the visitor on to the first tab, so this route shows nothing.
 */
export default function AreaOtherPath() {
  return null;
}
