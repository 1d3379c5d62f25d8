import {
  ALL_PERMISSIONS,
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  authzMessages,
  userMessages,
  type IdSet,
  type PaginationQuery,
  type PlanRoleGrants,
  type PermissionName,
  type PermissionPublic,
  type PermissionsPublic,
  type RoleCreate,
  type RolePermissionCreate,
  type RolePermissionPublic,
  type RolePublic,
  type RolesPublic,
  type RoleUpdate,
  type UserRoleCreate,
  type UserRolePublic,
} from '@dataplatform/contract';
import type { Database, DbOrTx } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, conflict, fieldError, isUniqueViolation, notFound } from '../../lib/errors.js';
import type { AuditService } from '../audit/audit.service.js';
import type { Actor, AuthContext } from '../../lib/auth-context.js';
import { mapPage, type Page, wholeList } from '../../lib/pagination.js';
import { findUserById } from '../users/users.service.js';
import { toPermissionPublic, toRolePublic } from './authz.mapper.js';
import {
  deletePermission,
  deleteRole,
  deleteRolePermissionsExcept,
  deleteUserRolesExcept,
  findPermissionById,
  findRoleById,
  insertPermission,
  insertRole,
  insertRolePermissions,
  insertUserRoles,
  keySharePermissions,
  keyShareRoles,
  listPermissions,
  listPermissionsOfRole,
  listPlanGrantsOfUser,
  listRoleIdsOfPermission,
  listRoleNamesOfUser,
  listRoles,
  listRolesOfUser,
  listUserIdsOfRole,
  lockRole,
  lockUser,
  updatePermission,
  updateRole,
  userHasPermission,
  userHasRole,
  type PermissionRow,
  type RoleRow,
} from './authz.repository.js';

const BUILT_IN_PERMISSIONS: ReadonlySet<string> = new Set(ALL_PERMISSIONS);

// Roles and permissions have the same shape, so one set of types serves both (the contract builds
// their bodies with one function: RoleCreate and PermissionCreate are one type, as are the updates).
type NamedCreate = RoleCreate;
type NamedUpdate = RoleUpdate;
type NamedRow = RoleRow | PermissionRow;
type NamedPublic = RolePublic | PermissionPublic;

/** What differs between the role and the permission catalogues; the rules are the same. */
interface Catalogue {
  targetType: string;
  actions: { create: string; update: string; delete: string };
  messages: { notFound: string; nameTaken: string };
  list(db: DbOrTx, page: PaginationQuery): Promise<Page<NamedRow>>;
  find(db: DbOrTx, id: string): Promise<NamedRow | undefined>;
  insert(
    db: DbOrTx,
    values: { name: string; description: string | null; createdBy: string; updatedBy: string },
  ): Promise<NamedRow>;
  update(
    db: DbOrTx,
    id: string,
    values: { name?: string; description?: string | null; updatedBy: string; updatedAt: Date },
  ): Promise<NamedRow | undefined>;
  delete(db: DbOrTx, id: string): Promise<boolean>;
  /** The assignments a delete removes with the row, kept in the audit entry's `before`. */
  assignmentsOf(db: DbOrTx, id: string): Promise<Record<string, string[]>>;
  /** Throws when the change is not allowed on this row. */
  guardChange(row: NamedRow, change: { rename: boolean; delete: boolean }): void;
}

const roleCatalogue: Catalogue = {
  targetType: AUDIT_TARGET_TYPES.role,
  actions: { create: AUDIT_ACTIONS.roleCreate, update: AUDIT_ACTIONS.roleUpdate, delete: AUDIT_ACTIONS.roleDelete },
  messages: { notFound: authzMessages.roleNotFound, nameTaken: authzMessages.roleNameTaken },
  list: listRoles,
  find: findRoleById,
  insert: insertRole,
  update: updateRole,
  delete: deleteRole,
  async assignmentsOf(db, id) {
    const permissionIds = (await listPermissionsOfRole(db, id)).map((row) => row.id).sort();
    return { user_ids: await listUserIdsOfRole(db, id), permission_ids: permissionIds };
  },
  guardChange() {},
};

const permissionCatalogue: Catalogue = {
  targetType: AUDIT_TARGET_TYPES.permission,
  actions: {
    create: AUDIT_ACTIONS.permissionCreate,
    update: AUDIT_ACTIONS.permissionUpdate,
    delete: AUDIT_ACTIONS.permissionDelete,
  },
  messages: { notFound: authzMessages.permissionNotFound, nameTaken: authzMessages.permissionNameTaken },
  list: listPermissions,
  find: findPermissionById,
  insert: insertPermission,
  update: updatePermission,
  delete: deletePermission,
  async assignmentsOf(db, id) {
    return { role_ids: await listRoleIdsOfPermission(db, id) };
  },
  // The server checks permissions by name: renaming or deleting a built-in one would silently take
  // a capability away from every role that holds it.
  guardChange(row, change) {
    if ((change.rename || change.delete) && BUILT_IN_PERMISSIONS.has(row.name)) {
      throw badRequest(authzMessages.builtInPermission);
    }
  },
};

const idsOf = (rows: { id: string }[]) => rows.map((row) => row.id).sort();

/** CRUD for one catalogue; every write is audited in its own transaction. */
function createCatalogueService(deps: { db: Database; clock: Clock; audit: AuditService }, catalogue: Catalogue) {
  const { db, clock, audit } = deps;

  async function withNameUnique<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(catalogue.messages.nameTaken);
      throw error;
    }
  }

  return {
    async list(page: PaginationQuery): Promise<RolesPublic | PermissionsPublic> {
      return mapPage(await catalogue.list(db, page), toRolePublic);
    },

    async get(id: string): Promise<NamedPublic> {
      const row = await catalogue.find(db, id);
      if (!row) throw notFound(catalogue.messages.notFound);
      return toRolePublic(row);
    },

    /** `created_by`/`updated_by` of the body are ignored: the caller is the author. */
    async create(actor: Actor, body: NamedCreate): Promise<NamedPublic> {
      return withNameUnique(() =>
        db.transaction(async (tx) => {
          const row = await catalogue.insert(tx, {
            name: body.name,
            description: body.description || null,
            createdBy: actor.user.id,
            updatedBy: actor.user.id,
          });
          const created = toRolePublic(row);
          await audit.record(tx, actor, {
            action: catalogue.actions.create,
            targetType: catalogue.targetType,
            targetId: row.id,
            before: null,
            after: created,
          });
          return created;
        }),
      );
    },

    async update(actor: Actor, id: string, body: NamedUpdate): Promise<NamedPublic> {
      return withNameUnique(() =>
        db.transaction(async (tx) => {
          const before = await catalogue.find(tx, id);
          if (!before) throw notFound(catalogue.messages.notFound);
          catalogue.guardChange(before, {
            rename: body.name !== undefined && body.name !== before.name,
            delete: false,
          });
          const row = await catalogue.update(tx, id, {
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(body.description !== undefined ? { description: body.description || null } : {}),
            updatedBy: actor.user.id,
            updatedAt: clock.now(),
          });
          if (!row) throw notFound(catalogue.messages.notFound);
          const after = toRolePublic(row);
          await audit.record(tx, actor, {
            action: catalogue.actions.update,
            targetType: catalogue.targetType,
            targetId: id,
            before: toRolePublic(before),
            after,
          });
          return after;
        }),
      );
    },

    /** Its assignments go with it (ON DELETE CASCADE); the audit entry keeps what they were. */
    async remove(actor: Actor, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const before = await catalogue.find(tx, id);
        if (!before) throw notFound(catalogue.messages.notFound);
        catalogue.guardChange(before, { rename: false, delete: true });
        const assignments = await catalogue.assignmentsOf(tx, id);
        if (!(await catalogue.delete(tx, id))) throw notFound(catalogue.messages.notFound);
        await audit.record(tx, actor, {
          action: catalogue.actions.delete,
          targetType: catalogue.targetType,
          targetId: id,
          before: { ...toRolePublic(before), ...assignments },
          after: null,
        });
      });
    },
  };
}

/** Roles, permissions, their assignments, and the checks the auth guard makes. */
export function createAuthzService(deps: { db: Database; clock: Clock; audit: AuditService }) {
  const { db, clock, audit } = deps;

  /** The first id of `requested` missing from `found`, as a 422 naming it and its position. */
  function assertAllFound(requested: string[], found: Set<string>, message: (id: string) => string) {
    const index = requested.findIndex((id) => !found.has(id));
    if (index >= 0) throw fieldError(['body', index], message(requested[index]!));
  }

  return {
    roles: createCatalogueService(deps, roleCatalogue),
    permissions: createCatalogueService(deps, permissionCatalogue),

    /**
     * Superusers hold every permission; anyone else holds those of its roles. Asked on every guarded
     * request and never cached, so revoking a role or a permission takes effect at once.
     */
    async hasPermission(auth: AuthContext, permission: PermissionName): Promise<boolean> {
      if (auth.user.isSuperuser) return true;
      return userHasPermission(db, auth.user.id, permission);
    },

    /** Whether the user holds the role of that exact name (superusers hold no role implicitly). */
    hasRole: (auth: AuthContext, roleName: string): Promise<boolean> => userHasRole(db, auth.user.id, roleName),

    roleNamesOf: (userId: string): Promise<string[]> => listRoleNamesOfUser(db, userId),

    async rolesOfUser(userId: string): Promise<RolesPublic> {
      if (!(await findUserById(db, userId))) throw notFound(userMessages.notFound);
      const rows = await listRolesOfUser(db, userId);
      return wholeList(rows, toRolePublic);
    },

    /**
     * The roles the user holds because a subscription is paid for (decision 046). They come and go
     * with the subscription; the hand assignments above neither include nor remove them.
     */
    async planRolesOfUser(userId: string): Promise<PlanRoleGrants> {
      if (!(await findUserById(db, userId))) throw notFound(userMessages.notFound);
      const rows = await listPlanGrantsOfUser(db, userId);
      return wholeList(rows, (row) => ({
        role_id: row.roleId,
        role_name: row.roleName,
        subscription_id: row.subscriptionId,
        plan_id: row.planId,
        plan_name: row.planName,
        granted_at: row.grantedAt.toISOString(),
      }));
    },

    async addUserRole(actor: Actor, body: UserRoleCreate): Promise<UserRolePublic> {
      return db.transaction(async (tx) => {
        if (!(await lockUser(tx, body.user_id))) throw fieldError(['body', 'user_id'], userMessages.notFound);
        const found = await keyShareRoles(tx, [body.role_id]);
        if (!found.has(body.role_id)) throw fieldError(['body', 'role_id'], authzMessages.unknownRole(body.role_id));
        const before = idsOf(await listRolesOfUser(tx, body.user_id));
        const [added] = await insertUserRoles(tx, body.user_id, [body.role_id], actor.user.id, clock.now());
        if (!added) throw conflict(authzMessages.userAlreadyHasRole);
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.userRoleAdd,
          targetType: AUDIT_TARGET_TYPES.user,
          targetId: body.user_id,
          before: { role_ids: before },
          after: { role_ids: [...before, body.role_id].sort() },
        });
        return { user_id: body.user_id, role_id: body.role_id, created_at: added.createdAt.toISOString() };
      });
    },

    /** Makes the user's roles exactly `roleIds` (duplicates count once), in one transaction. */
    async replaceUserRoles(actor: Actor, userId: string, roleIds: IdSet): Promise<RolesPublic> {
      const wanted = [...new Set(roleIds)];
      return db.transaction(async (tx) => {
        if (!(await lockUser(tx, userId))) throw notFound(userMessages.notFound);
        assertAllFound(roleIds, await keyShareRoles(tx, wanted), authzMessages.unknownRole);
        const before = idsOf(await listRolesOfUser(tx, userId));
        await deleteUserRolesExcept(tx, userId, wanted);
        await insertUserRoles(tx, userId, wanted, actor.user.id, clock.now());
        const rows = await listRolesOfUser(tx, userId);
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.userRolesReplace,
          targetType: AUDIT_TARGET_TYPES.user,
          targetId: userId,
          before: { role_ids: before },
          after: { role_ids: idsOf(rows) },
        });
        return wholeList(rows, toRolePublic);
      });
    },

    async permissionsOfRole(roleId: string): Promise<PermissionsPublic> {
      if (!(await findRoleById(db, roleId))) throw notFound(authzMessages.roleNotFound);
      const rows = await listPermissionsOfRole(db, roleId);
      return wholeList(rows, toPermissionPublic);
    },

    async addRolePermission(actor: Actor, body: RolePermissionCreate): Promise<RolePermissionPublic> {
      return db.transaction(async (tx) => {
        if (!(await lockRole(tx, body.role_id))) {
          throw fieldError(['body', 'role_id'], authzMessages.unknownRole(body.role_id));
        }
        const found = await keySharePermissions(tx, [body.permission_id]);
        if (!found.has(body.permission_id)) {
          throw fieldError(['body', 'permission_id'], authzMessages.unknownPermission(body.permission_id));
        }
        const before = idsOf(await listPermissionsOfRole(tx, body.role_id));
        const [added] = await insertRolePermissions(tx, body.role_id, [body.permission_id], actor.user.id, clock.now());
        if (!added) throw conflict(authzMessages.roleAlreadyHasPermission);
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.rolePermissionAdd,
          targetType: AUDIT_TARGET_TYPES.role,
          targetId: body.role_id,
          before: { permission_ids: before },
          after: { permission_ids: [...before, body.permission_id].sort() },
        });
        return {
          role_id: body.role_id,
          permission_id: body.permission_id,
          created_at: added.createdAt.toISOString(),
        };
      });
    },

    /** Makes the role's permissions exactly `permissionIds` (duplicates count once), in one transaction. */
    async replaceRolePermissions(actor: Actor, roleId: string, permissionIds: IdSet): Promise<PermissionsPublic> {
      const wanted = [...new Set(permissionIds)];
      return db.transaction(async (tx) => {
        if (!(await lockRole(tx, roleId))) throw notFound(authzMessages.roleNotFound);
        assertAllFound(permissionIds, await keySharePermissions(tx, wanted), authzMessages.unknownPermission);
        const before = idsOf(await listPermissionsOfRole(tx, roleId));
        await deleteRolePermissionsExcept(tx, roleId, wanted);
        await insertRolePermissions(tx, roleId, wanted, actor.user.id, clock.now());
        const rows = await listPermissionsOfRole(tx, roleId);
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.rolePermissionsReplace,
          targetType: AUDIT_TARGET_TYPES.role,
          targetId: roleId,
          before: { permission_ids: before },
          after: { permission_ids: idsOf(rows) },
        });
        return wholeList(rows, toPermissionPublic);
      });
    },
  };
}

export type AuthzService = ReturnType<typeof createAuthzService>;
