import './zod-config.js';
import { z } from 'zod';
import { pageOf } from './common.js';
import {
  ROLE_NAME_MAX_LENGTH,
  PERMISSION_NAME_MAX_LENGTH,
  DESCRIPTION_MAX_LENGTH,
  ASSIGNMENT_SET_MAX,
  authzMessages,
} from './authz-constants.js';

export * from './authz-constants.js';

const IdSchema = z.uuid({ error: authzMessages.invalidId });

function nameSchema(required: string, tooLong: string, max: number) {
  return z.string({ error: required }).trim().min(1, required).max(max, tooLong);
}

const RoleNameSchema = nameSchema(authzMessages.roleNameRequired, authzMessages.roleNameTooLong, ROLE_NAME_MAX_LENGTH);
const PermissionNameSchema = nameSchema(
  authzMessages.permissionNameRequired,
  authzMessages.permissionNameTooLong,
  PERMISSION_NAME_MAX_LENGTH,
);
const DescriptionSchema = z.string().trim().max(DESCRIPTION_MAX_LENGTH, authzMessages.descriptionTooLong).nullish();

/**
 * The admin console sends `created_by`/`updated_by` (the stored user id); they are accepted so its
 * calls validate, and ignored: the server records the caller. Still checked as what the document
 * says they are, a string (or null), so validation and the document agree.
 */
const IgnoredAuthorSchema = z
  .string()
  .max(100)
  .nullish()
  .meta({ description: 'Ignored: the server records the caller' });

const AuthoredSchema = {
  id: z.uuid(),
  description: z.string().nullable(),
  created_by: z.uuid().nullable(),
  updated_by: z.uuid().nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
};

export const RolePublicSchema = z.object({ name: z.string(), ...AuthoredSchema });
export type RolePublic = z.infer<typeof RolePublicSchema>;
export const RolesPublicSchema = pageOf(RolePublicSchema);
export type RolesPublic = z.infer<typeof RolesPublicSchema>;

export const PermissionPublicSchema = z.object({ name: z.string(), ...AuthoredSchema });
export type PermissionPublic = z.infer<typeof PermissionPublicSchema>;
export const PermissionsPublicSchema = pageOf(PermissionPublicSchema);
export type PermissionsPublic = z.infer<typeof PermissionsPublicSchema>;

/**
 * A role's or a permission's bodies: `create` needs the name, `update` keeps the value of an absent
 * field. Both carry the console's ignored authors.
 */
function namedItemBodySchemas(name: ReturnType<typeof nameSchema>) {
  const rest = { description: DescriptionSchema, created_by: IgnoredAuthorSchema, updated_by: IgnoredAuthorSchema };
  return { create: z.object({ name, ...rest }), update: z.object({ name: name.optional(), ...rest }) };
}

const roleBodies = namedItemBodySchemas(RoleNameSchema);
const permissionBodies = namedItemBodySchemas(PermissionNameSchema);

/** `POST /authorization/roles` */
export const RoleCreateSchema = roleBodies.create;
export type RoleCreate = z.infer<typeof RoleCreateSchema>;

/** `PUT /authorization/roles/{role_id}`: absent fields keep their value. */
export const RoleUpdateSchema = roleBodies.update;
export type RoleUpdate = z.infer<typeof RoleUpdateSchema>;

/** `POST /authorization/permissions` */
export const PermissionCreateSchema = permissionBodies.create;
/** @public Part of the contract for API clients, though no code of this repository names it. */
export type PermissionCreate = z.infer<typeof PermissionCreateSchema>;

/** `PUT /authorization/permissions/{permission_id}`: absent fields keep their value. */
export const PermissionUpdateSchema = permissionBodies.update;
/** @public Part of the contract for API clients, though no code of this repository names it. */
export type PermissionUpdate = z.infer<typeof PermissionUpdateSchema>;

/** `POST /authorization/user-role`: adds one role to a user. */
export const UserRoleCreateSchema = z.object({ user_id: IdSchema, role_id: IdSchema });
export type UserRoleCreate = z.infer<typeof UserRoleCreateSchema>;
export const UserRolePublicSchema = z.object({ user_id: z.uuid(), role_id: z.uuid(), created_at: z.iso.datetime() });
export type UserRolePublic = z.infer<typeof UserRolePublicSchema>;

/**
 * `GET /authorization/user/{user_id}/plan-roles`: roles the user holds because a subscription is
 * paid for (decision 046). They are not hand assignments: `PUT .../roles` neither adds nor removes them.
 */
export const PlanRoleGrantSchema = z.object({
  role_id: z.uuid(),
  role_name: z.string(),
  subscription_id: z.uuid(),
  plan_id: z.uuid().nullable(),
  plan_name: z.string().nullable(),
  granted_at: z.iso.datetime(),
});
/** @public Part of the contract for API clients, though no code of this repository names it. */
export type PlanRoleGrant = z.infer<typeof PlanRoleGrantSchema>;
export const PlanRoleGrantsSchema = pageOf(PlanRoleGrantSchema);
export type PlanRoleGrants = z.infer<typeof PlanRoleGrantsSchema>;

/** `POST /authorization/role-permission`: adds one permission to a role. */
export const RolePermissionCreateSchema = z.object({ role_id: IdSchema, permission_id: IdSchema });
export type RolePermissionCreate = z.infer<typeof RolePermissionCreateSchema>;
export const RolePermissionPublicSchema = z.object({
  role_id: z.uuid(),
  permission_id: z.uuid(),
  created_at: z.iso.datetime(),
});
export type RolePermissionPublic = z.infer<typeof RolePermissionPublicSchema>;

/** `PUT /authorization/user/{user_id}/roles` and `.../role/{role_id}/permissions`: the whole new set. */
export const IdSetSchema = z.array(IdSchema).max(ASSIGNMENT_SET_MAX);
export type IdSet = z.infer<typeof IdSetSchema>;

export const RoleIdParamsSchema = z.object({ role_id: IdSchema });
export const PermissionIdParamsSchema = z.object({ permission_id: IdSchema });
