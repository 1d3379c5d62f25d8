// No zod here (decision 030): a screen that shows only these texts or limits does not load zod.
export const SSO_NAME_MAX = 100;

export const SSO_ISSUER_MAX = 2048;

export const SSO_CLIENT_ID_MAX = 255;

export const SSO_CLIENT_SECRET_MAX = 1024;

export const SSO_DOMAINS_MAX = 50;

export const SSO_DOMAIN_MAX = 253;

/** How long the one-time code in `/login/sso#code=…` may be exchanged (SSO-4). */
export const SSO_HANDOFF_TTL_MINUTES = 10;

export const ssoMessages = {
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${SSO_NAME_MAX} characters`,
  nameTaken: 'A connection with this name already exists',
  issuerInvalid: 'Issuer must be an https:// URL (http:// only on this machine)',
  clientIdRequired: 'Client ID is required',
  clientSecretRequired: 'Client secret is required',
  domainsRequired: 'Enter at least one e-mail domain',
  domainInvalid: 'Enter domains like example.com, separated by commas',
  domainsTooMany: `At most ${SSO_DOMAINS_MAX} domains`,
  domainTaken: 'Another connection already uses one of these domains',
  tenantNotFound: 'Tenant not found',
  notFound: 'Connection not found',
  created: 'Connection created successfully',
  updated: 'Connection updated successfully',
  deleted: 'Connection deleted successfully',
  notConfigured: 'Single sign-on is not set up for this e-mail address',
  providerUnavailable: 'The identity provider could not be reached. Please try again later.',
  invalidCode: 'This sign-in has expired. Please sign in with SSO again.',
  incorrectPassword: 'Incorrect password',
  linked: 'Your account is now linked to single sign-on',
} as const;

/**
 * Why a sign-in at the identity provider did not sign anyone in: the callback sends the browser to
 * `/login/sso#error=<code>` and the page shows the text (SSO-3).
 */
export const SSO_CALLBACK_ERRORS = {
  sso_failed: 'Single sign-on failed. Please try again.',
  email_unverified: 'Your identity provider has not verified your e-mail address.',
  domain_not_allowed: 'Your e-mail address may not sign in with this identity provider.',
  inactive_user: 'Inactive user',
} as const;
