// No zod here (decision 030): a screen that shows only these texts or limits does not load zod.
export const TENANT_NAME_MAX = 100;

export const TENANT_DESCRIPTION_MAX = 1000;

export const TENANT_DBURL_MAX = 2048;

/** Stands for the password part of a tenant's database URL in every response. */
export const DBURL_PASSWORD_MASK = '****';

/** The header that selects the tenant a request acts for; empty or absent means none. */
export const TENANT_HEADER = 'X-Tenant-ID';

export const TENANT_STATUSES = ['active', 'inactive'] as const;

export const tenantMessages = {
  nameRequired: 'Tenant name is required',
  nameTooLong: `Tenant name must be at most ${TENANT_NAME_MAX} characters`,
  descriptionTooLong: `Description must be at most ${TENANT_DESCRIPTION_MAX} characters`,
  nameTaken: 'A tenant with this name already exists',
  dburlInvalid: 'Database URL must look like postgresql://user:password@host:5432/database',
  dburlTooLong: `Database URL must be at most ${TENANT_DBURL_MAX} characters`,
  dburlMaskedWithoutSecret: 'Database URL contains the masked password but no password is stored: enter the password',
  dburlHostNotAllowed: 'This server may not connect to that database host',
  notFound: 'Tenant not found',
  inactive: 'Tenant is inactive',
  notMember: 'You are not a member of this tenant',
  noTenantSelected: 'No tenant selected',
  noDatabase: 'No database URL is set for this tenant',
  dburlUnreadable: 'The stored database URL cannot be decrypted (was SECRET_KEY changed?): enter it again',
  databaseUnavailable: 'The tenant database is unavailable',
  unknownMember: 'User not found',
  created: 'Tenant created successfully',
  updated: 'Tenant updated successfully',
  deleted: 'Tenant deleted successfully',
} as const;

/** Most members one `PUT /tenants/{tenant_id}/members` may name. */
export const TENANT_MEMBERS_MAX = 10_000;
