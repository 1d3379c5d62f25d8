// No zod here (decision 030): a screen that shows only these texts or limits does not load zod.
export const ROLE_NAME_MAX_LENGTH = 100;

export const PERMISSION_NAME_MAX_LENGTH = 100;

export const DESCRIPTION_MAX_LENGTH = 500;

/** Most ids one PUT of an assignment set may carry. */
export const ASSIGNMENT_SET_MAX = 1000;

/** A role whose name starts with this grants the download of the file named by the rest. */
export const DOWNLOAD_ROLE_PREFIX = 'download_';

export const authzMessages = {
  roleNameRequired: 'Role name is required',
  roleNameTooLong: `Role name must be at most ${ROLE_NAME_MAX_LENGTH} characters`,
  permissionNameRequired: 'Permission name is required',
  permissionNameTooLong: `Permission name must be at most ${PERMISSION_NAME_MAX_LENGTH} characters`,
  descriptionTooLong: `Description must be at most ${DESCRIPTION_MAX_LENGTH} characters`,
  roleNotFound: 'Role not found',
  permissionNotFound: 'Permission not found',
  roleNameTaken: 'A role with this name already exists',
  permissionNameTaken: 'A permission with this name already exists',
  builtInPermission: 'Built-in permissions cannot be renamed or deleted',
  userAlreadyHasRole: 'The user already has this role',
  roleAlreadyHasPermission: 'The role already has this permission',
  unknownRole: (id: string) => `Role ${id} not found`,
  unknownPermission: (id: string) => `Permission ${id} not found`,
  invalidId: 'Invalid id',
} as const;
