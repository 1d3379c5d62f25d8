import type pg from 'pg';
import { randomUUID } from 'node:crypto';
import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  tenantMessages,
  type PaginationQuery,
  type TenantConnectionCheck,
  type TenantCreate,
  type TenantMembers,
  type TenantPublic,
  type TenantsPublic,
  type TenantSummaries,
  type TenantTables,
  type TenantUpdate,
} from '@dataplatform/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import {
  conflict,
  describeError,
  fieldError,
  forbidden,
  isUniqueViolation,
  notFound,
  serviceUnavailable,
} from '../../lib/errors.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { isUuid } from '../../lib/uuid.js';
import type { TenantContext } from '../../plugins/tenant-context.js';
import type { AuditService } from '../audit/audit.service.js';
import type { Actor, AuthContext } from '../../lib/auth-context.js';
import { mapPage } from '../../lib/pagination.js';
import {
  containsMask,
  isAllowedDatabaseHost,
  isParsableUrl,
  maskDatabaseUrl,
  scrubSecrets,
  secretsOf,
  unmaskDatabaseUrl,
} from './database-url.js';
import { listTenantTables, probeDatabase } from './tenant-databases.js';
import type { TenantPools } from './tenant-pools.js';
import { toTenantAuditSnapshot, toTenantPublic, toTenantSummary } from './tenants.mapper.js';
import {
  deleteTenant,
  findMissingUserIds,
  findTenantById,
  findTenantByName,
  findTenantWithMembership,
  insertTenant,
  listActiveTenantsOf,
  listMemberIds,
  listTenants,
  lockTenant,
  replaceMembers,
  updateTenant,
  type TenantRow,
} from './tenants.repository.js';

export function createTenantsService(deps: {
  db: Database;
  clock: Clock;
  config: Config;
  secrets: SecretBox;
  pools: TenantPools;
  audit: AuditService;
  log: FastifyBaseLogger;
  /**
   * Told once a tenant's deletion has committed, to let go of what lives outside the database (its
   * Studio extract files, databases and cached results). Its failure is logged, never answered.
   */
  afterDelete?: (tenantId: string) => Promise<void>;
}) {
  const { db, clock, config, secrets, pools, audit, log } = deps;
  const target = (id: string) => ({ targetType: AUDIT_TARGET_TYPES.tenant, targetId: id });

  async function getExisting(id: string): Promise<TenantRow> {
    const tenant = await findTenantById(db, id);
    if (!tenant) throw notFound(tenantMessages.notFound);
    return tenant;
  }

  const hostAllowed = (url: string) => isAllowedDatabaseHost(url, config.tenantDatabases.allowedHosts);

  function sealDburl(tenantId: string, plain: string) {
    if (!isParsableUrl(plain)) throw fieldError(['body', 'dburl'], tenantMessages.dburlInvalid);
    if (!hostAllowed(plain)) throw fieldError(['body', 'dburl'], tenantMessages.dburlHostNotAllowed);
    return { dburlSealed: secrets.seal(plain, tenantId), dburlMasked: maskDatabaseUrl(plain) };
  }

  /** The plain URL, or null when there is none or it no longer opens (SECRET_KEY changed). */
  function openSealed(tenantId: string, sealed: string | null): string | null {
    if (sealed === null) return null;
    try {
      return secrets.open(sealed, tenantId);
    } catch {
      return null;
    }
  }
  const openStored = (row: TenantRow) => openSealed(row.id, row.dburlSealed);

  /**
   * What to store for an incoming `dburl`: undefined keeps the stored one (omitted, sent back masked,
   * or unchanged), null removes it. A mask in place of the password stands for the stored one.
   */
  function nextDburl(
    row: TenantRow,
    incoming: string | null | undefined,
  ): { dburlSealed: string | null; dburlMasked: string | null } | undefined {
    if (incoming === undefined || incoming === row.dburlMasked) return undefined;
    if (incoming === null) return row.dburlSealed === null ? undefined : { dburlSealed: null, dburlMasked: null };
    if (!isParsableUrl(incoming)) throw fieldError(['body', 'dburl'], tenantMessages.dburlInvalid);
    let plain = incoming;
    if (containsMask(incoming)) {
      const resolved = unmaskDatabaseUrl(incoming, openStored(row));
      if (resolved === undefined) throw fieldError(['body', 'dburl'], tenantMessages.dburlMaskedWithoutSecret);
      plain = resolved;
      if (plain === openStored(row)) return undefined;
    }
    return sealDburl(row.id, plain);
  }

  function nameTaken(error: unknown): never {
    if (isUniqueViolation(error)) throw conflict(tenantMessages.nameTaken);
    throw error;
  }

  return {
    async list(page: PaginationQuery): Promise<TenantsPublic> {
      return mapPage(await listTenants(db, page), toTenantPublic);
    },

    async get(id: string): Promise<TenantPublic> {
      return toTenantPublic(await getExisting(id));
    },

    async create(actor: Actor, body: TenantCreate): Promise<TenantPublic> {
      // The id is made here so the URL can be sealed to it in the same insert.
      const id = randomUUID();
      const created = await db
        .transaction(async (tx) => {
          if (await findTenantByName(tx, body.name)) throw conflict(tenantMessages.nameTaken);
          const row = await insertTenant(tx, {
            id,
            name: body.name,
            description: body.description ?? null,
            status: body.status,
            ...(body.dburl ? sealDburl(id, body.dburl) : {}),
          });
          await audit.record(tx, actor, {
            action: AUDIT_ACTIONS.tenantCreate,
            ...target(id),
            before: null,
            after: toTenantAuditSnapshot(row),
          });
          return row;
        })
        .catch(nameTaken);
      return toTenantPublic(created);
    },

    async update(actor: Actor, id: string, body: TenantUpdate): Promise<TenantPublic> {
      const { before, after } = await db
        .transaction(async (tx) => {
          const row = await lockTenant(tx, id);
          if (!row) throw notFound(tenantMessages.notFound);
          if (body.name !== undefined && body.name !== row.name) {
            const other = await findTenantByName(tx, body.name);
            if (other && other.id !== id) throw conflict(tenantMessages.nameTaken);
          }
          const dburl = nextDburl(row, body.dburl);
          const updated = await updateTenant(tx, id, {
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(body.description !== undefined ? { description: body.description } : {}),
            ...(body.status !== undefined ? { status: body.status } : {}),
            ...(dburl ?? {}),
            updatedAt: clock.now(),
          });
          if (!updated) throw notFound(tenantMessages.notFound);
          await audit.record(tx, actor, {
            action: AUDIT_ACTIONS.tenantUpdate,
            ...target(id),
            before: toTenantAuditSnapshot(row),
            after: toTenantAuditSnapshot(updated),
          });
          return { before: row, after: updated };
        })
        .catch(nameTaken);
      // Requests already running finish on the old pool; the next one opens the new URL.
      if (after.dburlSealed !== before.dburlSealed || after.status !== 'active') pools.close(id);
      return toTenantPublic(after);
    },

    /**
     * Removes the tenant and its memberships (its Studio reports and extract rows cascade), closes
     * its pool, then, the deletion committed, has `afterDelete` remove what it kept elsewhere; its
     * own database is left as it is.
     */
    async remove(actor: Actor, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const deleted = await deleteTenant(tx, id);
        if (!deleted) throw notFound(tenantMessages.notFound);
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.tenantDelete,
          ...target(id),
          before: toTenantAuditSnapshot(deleted),
          after: null,
        });
      });
      pools.close(id);
      await deps
        .afterDelete?.(id)
        .catch((error: unknown) =>
          log.warn({ tenantId: id, err: describeError(error) }, "a deleted tenant's files could not all be removed"),
        );
    },

    async checkConnection(id: string): Promise<TenantConnectionCheck> {
      const tenant = await getExisting(id);
      if (tenant.dburlSealed === null) return { ok: false, detail: tenantMessages.noDatabase };
      const url = openStored(tenant);
      if (url === null) return { ok: false, detail: tenantMessages.dburlUnreadable };
      // Also for a URL stored before TENANT_DB_HOSTS said otherwise.
      if (!hostAllowed(url)) return { ok: false, detail: tenantMessages.dburlHostNotAllowed };
      return probeDatabase(url, config.tenantDatabases.connectTimeoutMs);
    },

    async getMembers(id: string): Promise<TenantMembers> {
      await getExisting(id);
      return listMemberIds(db, id);
    },

    async setMembers(actor: Actor, id: string, userIds: TenantMembers): Promise<TenantMembers> {
      const unique = [...new Set(userIds)];
      return db.transaction(async (tx) => {
        if (!(await lockTenant(tx, id))) throw notFound(tenantMessages.notFound);
        const [missing] = await findMissingUserIds(tx, unique);
        if (missing !== undefined) throw fieldError(['body', userIds.indexOf(missing)], tenantMessages.unknownMember);
        const before = await listMemberIds(tx, id);
        await replaceMembers(tx, id, unique);
        const after = await listMemberIds(tx, id);
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.tenantMembersReplace,
          ...target(id),
          before: { user_ids: before },
          after: { user_ids: after },
        });
        return after;
      });
    },

    /** The tenant switcher: active tenants the caller belongs to; superusers may pick any active one. */
    async myTenants(auth: AuthContext, page: PaginationQuery): Promise<TenantSummaries> {
      const memberId = auth.user.isSuperuser ? undefined : auth.user.id;
      return mapPage(await listActiveTenantsOf(db, memberId, page), toTenantSummary);
    },

    /** For the tenant-context plugin: checks in the order 404 unknown, 403 inactive, 403 not a member. */
    /** An active tenant's id and sealed database URL, whoever asks (a share link runs there); null otherwise. */
    async activeTenant(tenantId: string): Promise<{ id: string; sealedDburl: string | null } | null> {
      const tenant = await findTenantById(db, tenantId);
      return tenant && tenant.status === 'active' ? { id: tenant.id, sealedDburl: tenant.dburlSealed } : null;
    },

    async resolveContext(tenantId: string, auth: AuthContext): Promise<TenantContext> {
      if (!isUuid(tenantId)) throw notFound(tenantMessages.notFound);
      const found = await findTenantWithMembership(db, tenantId, auth.user.id);
      if (!found) throw notFound(tenantMessages.notFound);
      if (found.tenant.status !== 'active') throw forbidden(tenantMessages.inactive);
      if (!found.isMember && !auth.user.isSuperuser) throw forbidden(tenantMessages.notMember);
      return { id: found.tenant.id, name: found.tenant.name, sealedDburl: found.tenant.dburlSealed };
    },

    /**
     * Runs `work` on the pool of a tenant's own database (Studio's `tenant` source) once its URL
     * opens and its host is allowed; failures of `work` are the caller's to describe.
     */
    async useDatabase<T>(tenantId: string, sealed: string, work: (pool: pg.Pool) => Promise<T>): Promise<T> {
      const plain = openSealed(tenantId, sealed);
      if (plain === null) throw serviceUnavailable(tenantMessages.dburlUnreadable);
      if (!hostAllowed(plain)) throw conflict(tenantMessages.dburlHostNotAllowed);
      return pools.use(tenantId, sealed, work);
    },

    /** Tables and views of the selected tenant's own database, read through its pool. */
    async listTables(tenant: TenantContext, page: PaginationQuery): Promise<TenantTables> {
      const sealed = tenant.sealedDburl;
      if (sealed === null) throw conflict(tenantMessages.noDatabase);
      const plain = openSealed(tenant.id, sealed);
      if (plain !== null && !hostAllowed(plain)) throw conflict(tenantMessages.dburlHostNotAllowed);
      try {
        return await pools.use(tenant.id, sealed, (pool) => listTenantTables(pool, page));
      } catch (error) {
        const reason = scrubSecrets(describeError(error), plain === null ? [] : secretsOf(plain));
        log.warn({ tenantId: tenant.id, reason }, 'tenant database query failed');
        throw serviceUnavailable(tenantMessages.databaseUnavailable);
      }
    },
  };
}

export type TenantsService = ReturnType<typeof createTenantsService>;
