type Navigate = (to: string, options?: { replace?: boolean }) => void;

let navigator: Navigate | undefined;

/** The router registers its navigate function so code outside components can change route. */
export function registerNavigator(navigate: Navigate | undefined): void {
  navigator = navigate;
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  if (navigator) navigator(to, options);
  else if (typeof window !== 'undefined') window.location.assign(to);
}
