/** The words of the button that opens the screen where a step is done, from the step's link. */
const SCREENS: Readonly<Record<string, string>> = {
  '/studio/sources': 'Open Sources',
  '/studio/reports/new': 'Open a new report',
  '/studio/reports': 'Open your reports',
  '/admin/tenants': 'Open Admin, Tenants',
  '/Agent': 'Open the Agent',
};

export function screenOf(link: string): string {
  return SCREENS[link] ?? 'Open the screen for this step';
}
