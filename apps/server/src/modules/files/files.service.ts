import type { FileHandle } from 'node:fs/promises';
import { open, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  DOWNLOAD_NAME_MAX_LENGTH,
  DOWNLOAD_NAME_PATTERN,
  DOWNLOAD_ROLE_PREFIX,
  fileMessages,
} from '@dataplatform/contract';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { badRequest, forbidden, notFound } from '../../lib/errors.js';
import type { AuditService } from '../audit/audit.service.js';
import type { Actor, AuthContext } from '../../lib/auth-context.js';

/**
 * The folder downloads are served from, and the one place that decides it: with a tenant selected,
 * that tenant's own folder `FILES_DIR/tenants/{tenant_id}` (never the global one as a fallback);
 * otherwise `FILES_DIR`. The tenant id has already been resolved to an existing tenant (a UUID).
 */
export function filesRootFor(config: Pick<Config, 'filesDir'>, tenantId: string | null): string {
  return tenantId === null ? config.filesDir : path.join(config.filesDir, 'tenants', tenantId);
}

/** The extension a stored file may add to the requested name (`sales_report` → `sales_report.csv`). */
const STORED_EXTENSION = /^[A-Za-z0-9]{1,16}$/;

/** A stored file, open for reading: whoever receives it closes `handle`. */
export interface StoredFile {
  handle: FileHandle;
  storedName: string;
  size: number;
  mtime: Date;
}

export function createFilesService(deps: {
  db: Database;
  config: Config;
  audit: AuditService;
  hasRole: (auth: AuthContext, roleName: string) => Promise<boolean>;
}) {
  const { db, config, audit, hasRole } = deps;

  function assertValidName(name: string) {
    if (name.length === 0 || name.length > DOWNLOAD_NAME_MAX_LENGTH || !DOWNLOAD_NAME_PATTERN.test(name)) {
      throw badRequest(fileMessages.invalidName);
    }
  }

  /**
   * The stored file for `name`, opened: `name` itself or `name.<ext>`, a regular file whose real
   * path (symlinks resolved) is inside the root. Anything else is "not found".
   */
  async function openStored(name: string, tenantId: string | null): Promise<StoredFile> {
    let root: string;
    try {
      root = await realpath(filesRootFor(config, tenantId));
    } catch {
      throw notFound(fileMessages.notFound);
    }
    const entries = await readdir(root);
    const candidates = entries
      .filter(
        (entry) =>
          entry === name || (entry.startsWith(`${name}.`) && STORED_EXTENSION.test(entry.slice(name.length + 1))),
      )
      .sort((a, b) => (a === name ? -1 : b === name ? 1 : a.localeCompare(b)));
    for (const storedName of candidates) {
      let real: string;
      try {
        real = await realpath(path.join(root, storedName));
      } catch {
        continue;
      }
      if (!real.startsWith(root + path.sep)) continue;
      const handle = await open(real, 'r').catch(() => undefined);
      if (!handle) continue;
      const stat = await handle.stat();
      if (stat.isFile()) return { handle, storedName, size: stat.size, mtime: stat.mtime };
      await handle.close();
    }
    throw notFound(fileMessages.notFound);
  }

  return {
    /**
     * `GET /files/download/{name}`'s checks: 400 for a name that is not a plain file name, 403 without
     * the role `download_{name}` (superusers may download any), 404 when no such file exists. With a
     * tenant selected (already checked: the caller belongs to it) the file comes from that tenant's
     * folder only. Answers the file opened; the route sends it (file-transport.ts) and closes it.
     */
    async openDownload(actor: Actor, name: string, tenantId: string | null): Promise<StoredFile> {
      assertValidName(name);
      if (!actor.user.isSuperuser && !(await hasRole(actor, `${DOWNLOAD_ROLE_PREFIX}${name}`))) {
        throw forbidden(fileMessages.notAuthorized);
      }
      return openStored(name, tenantId);
    },

    /** Records a download in the audit log: the file, its size, the bytes sent (`start-end`) if a range. */
    async recordDownload(actor: Actor, file: StoredFile, range: string | null, tenantId: string | null) {
      await db.transaction((tx) =>
        audit.record(tx, actor, {
          action: AUDIT_ACTIONS.fileDownload,
          targetType: AUDIT_TARGET_TYPES.file,
          targetId: file.storedName,
          before: null,
          after: { file: file.storedName, size: file.size, range, tenant_id: tenantId },
        }),
      );
    },
  };
}

export type FilesService = ReturnType<typeof createFilesService>;
