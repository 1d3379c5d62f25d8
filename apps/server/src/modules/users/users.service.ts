import {
  AUDIT_ACTIONS,
  EMAIL_VERIFICATION_TTL_HOURS,
  AUDIT_TARGET_TYPES,
  PERMISSIONS,
  userMessages,
  type UpdatePassword,
  type UserCreate,
  type UserMe,
  type UserPublic,
  type UserRegister,
  type UsersPublic,
  type UserUpdate,
  type UserListQuery,
  type UserUpdateMe,
} from '@dataplatform/contract';
import type { DbOrTx } from '../../db/client.js';
import { badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors.js';
import { mapPage } from '../../lib/pagination.js';
import { assertUncommonPassword } from '../../lib/common-passwords.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import type { Actor, AuthContext, HasPermission } from '../../lib/auth-context.js';
import type { SessionService } from '../sessions/sessions.service.js';
import {
  enqueueMail,
  signupWithExistingAccountMail,
  welcomeMail,
  type MailingServiceDeps,
} from '../mail/mail.service.js';
import {
  insertUserWithVerificationLink,
  type EmailVerificationService,
} from '../email-verification/email-verification.service.js';
import { toUserAuditSnapshot, toUserMe, toUserPublic } from './users.mapper.js';
import {
  deleteUser,
  findUserByEmail,
  findUserById,
  insertUser,
  findPasswordHash,
  listUsers,
  updateUser,
  type UserRow,
} from './users.repository.js';

// What other modules use of users: reads of the user row inside their own transaction, the public
// shape of a user, and (for e-mail verification) the write that marks an address verified and the
// audit snapshot of the row.
export {
  findUserByEmail,
  findUserById,
  prepareFindLoginCredentials,
  updateUser,
  type UserRow,
} from './users.repository.js';
export { toUserAuditSnapshot, toUserPublic } from './users.mapper.js';

/**
 * Whether `password` is the user's current one. The hash is read when a call needs it rather than
 * carried by every request (a session's user has none); a user gone meanwhile matches nothing.
 */
export async function passwordMatches(db: DbOrTx, userId: string, password: string): Promise<boolean> {
  const hash = await findPasswordHash(db, userId);
  return hash !== undefined && (await verifyPassword(hash, password));
}

export function createUsersService(
  deps: MailingServiceDeps & {
    sessions: SessionService;
    hasPermission: HasPermission;
    /** Links that verify addresses: sign-up mails one, and a new address waits for its own (decision 029). */
    verification: Pick<EmailVerificationService, 'newLink' | 'requestChange' | 'addressReplaced'>;
    /**
     * Auth's part of a password change, in the same transaction: revokes the user's sessions (all, or
     * all but `keepSessionId`) and outstanding reset links.
     */
    revokeCredentials: (tx: DbOrTx, userId: string, keepSessionId?: string) => Promise<void>;
    /** Runs before an account is deleted (billing ends the subscription and detaches the cards). */
    beforeDelete?: (userId: string) => Promise<void>;
  },
) {
  const {
    db,
    config,
    clock,
    sessions,
    wakeMailer,
    hasPermission,
    audit,
    verification,
    revokeCredentials,
    beforeDelete,
  } = deps;

  /**
   * The one way a password changes (self-service, reset, admin): store the new hash, then revoke
   * what was issued under the old one, in the caller's transaction. Hash before opening the
   * transaction: argon2 is slow on purpose.
   */
  async function replacePassword(
    tx: DbOrTx,
    params: { userId: string; hashedPassword: string; keepSessionId?: string },
  ): Promise<void> {
    const now = clock.now();
    await updateUser(tx, params.userId, {
      hashedPassword: params.hashedPassword,
      passwordChangedAt: now,
      updatedAt: now,
    });
    await revokeCredentials(tx, params.userId, params.keepSessionId);
  }

  /** Only a superuser makes or unmakes superusers, whatever permissions a role grants. */
  function assertMaySetSuperuser(auth: AuthContext, isSuperuser: boolean) {
    if (isSuperuser !== undefined && !auth.user.isSuperuser) throw forbidden(userMessages.notEnoughPrivileges);
  }

  /** Changing the address to one already taken is refused; the check and the write share a tx. */
  async function assertEmailFree(tx: DbOrTx, email: string, exceptId?: string) {
    const existing = await findUserByEmail(tx, email);
    if (existing && existing.id !== exceptId) throw conflict(userMessages.emailTaken, 'email_taken');
  }

  async function getExisting(id: string): Promise<UserRow> {
    const user = await findUserById(db, id);
    if (!user) throw notFound(userMessages.notFound);
    return user;
  }

  return {
    replacePassword,

    /**
     * Signing up with a registered address answers exactly as for a new one (no enumeration); the
     * owner of the address gets a mail saying so instead of a welcome.
     */
    async signup(body: UserRegister): Promise<void> {
      await assertUncommonPassword(body.password, 'password');
      const hashedPassword = await hashPassword(body.password);
      const loginLink = `${config.frontendHost}/login`;
      const existingMail = signupWithExistingAccountMail(body.email, `${config.frontendHost}/recover-password`);
      const { link, tokenHash, expiresAt } = verification.newLink();
      // The same single statement for a new and a registered address (which it leaves alone), then
      // one mail either way: neither the answer nor its timing tells them apart (decision 003). A
      // sign-up racing another for the same address waits for it, then finds the address taken.
      await db.transaction(async (tx) => {
        const created = await insertUserWithVerificationLink(
          tx,
          { email: body.email, hashedPassword, fullName: body.full_name },
          { tokenHash, expiresAt },
        );
        await enqueueMail(
          tx,
          created
            ? welcomeMail(body.email, body.full_name, { verify: link, login: loginLink }, EMAIL_VERIFICATION_TTL_HOURS)
            : existingMail,
        );
      });
      wakeMailer();
    },

    /** The caller, with its role names (the settings area shows a Download tab per `download_` role). */
    async me(auth: AuthContext): Promise<UserMe> {
      return toUserMe(auth.user, auth.roleNames);
    },

    /**
     * The name changes at once; a new e-mail address only once its owner follows the link mailed to
     * it (decision 029), so the answer still carries the current one.
     */
    async updateMe(auth: AuthContext, body: UserUpdateMe): Promise<UserPublic> {
      const newEmail = body.email !== undefined && body.email !== auth.user.email ? body.email : undefined;
      const updated = await db.transaction(async (tx) => {
        const row = await updateUser(tx, auth.user.id, {
          ...(body.full_name !== undefined ? { fullName: body.full_name || null } : {}),
          updatedAt: clock.now(),
        });
        if (!row) throw notFound(userMessages.notFound);
        if (newEmail !== undefined) {
          await assertEmailFree(tx, newEmail, auth.user.id);
          await verification.requestChange(tx, row, newEmail);
        }
        return row;
      });
      if (newEmail !== undefined) wakeMailer();
      return toUserPublic(updated);
    },

    /** Needs the current password; other sessions are signed out, the caller's stays. */
    async changePassword(auth: AuthContext, body: UpdatePassword): Promise<void> {
      if (!(await passwordMatches(db, auth.user.id, body.current_password))) {
        throw badRequest(userMessages.incorrectPassword, 'incorrect_password');
      }
      if (body.current_password === body.new_password) throw badRequest(userMessages.samePassword);
      await assertUncommonPassword(body.new_password, 'new_password');
      const hashedPassword = await hashPassword(body.new_password);
      await db.transaction((tx) =>
        replacePassword(tx, { userId: auth.user.id, hashedPassword, keepSessionId: auth.sessionId }),
      );
    },

    async deleteMe(auth: AuthContext): Promise<void> {
      if (auth.user.isSuperuser) throw forbidden(userMessages.superuserCannotDeleteSelf);
      await beforeDelete?.(auth.user.id);
      // Sessions go with the row (ON DELETE CASCADE), so the token dies at once.
      await deleteUser(db, auth.user.id);
    },

    async list(page: UserListQuery): Promise<UsersPublic> {
      return mapPage(await listUsers(db, page), toUserPublic);
    },

    async create(actor: Actor, body: UserCreate): Promise<UserPublic> {
      if (body.is_superuser) assertMaySetSuperuser(actor, true);
      const hashedPassword = await hashPassword(body.password);
      try {
        const created = await db.transaction(async (tx) => {
          await assertEmailFree(tx, body.email);
          const row = await insertUser(tx, {
            email: body.email,
            hashedPassword,
            fullName: body.full_name ?? null,
            isActive: body.is_active,
            isSuperuser: body.is_superuser,
            // A superuser vouches for the addresses of the accounts it makes (decision 029).
            emailVerifiedAt: clock.now(),
          });
          await audit.record(tx, actor, {
            action: AUDIT_ACTIONS.userCreate,
            targetType: AUDIT_TARGET_TYPES.user,
            targetId: row.id,
            before: null,
            after: toUserAuditSnapshot(row),
          });
          return row;
        });
        return toUserPublic(created);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(userMessages.emailTaken, 'email_taken');
        throw error;
      }
    },

    /** A user may read itself; reading anyone else needs users:read. */
    async get(auth: AuthContext, id: string): Promise<UserPublic> {
      if (id === auth.user.id) return toUserPublic(auth.user);
      if (!(await hasPermission(auth, PERMISSIONS.usersRead))) throw forbidden(userMessages.notEnoughPrivileges);
      return toUserPublic(await getExisting(id));
    },

    /** Changes of the active or superuser flag are in the audit entry's before/after like any other. */
    async update(actor: Actor, id: string, body: UserUpdate): Promise<UserPublic> {
      if (id === actor.user.id) {
        if (body.is_superuser === false && actor.user.isSuperuser)
          throw badRequest(userMessages.cannotChangeOwnSuperuser);
        if (body.is_active === false) throw badRequest(userMessages.cannotDeactivateSelf);
      }
      const hashedPassword = body.password === undefined ? undefined : await hashPassword(body.password);
      try {
        const updated = await db.transaction(async (tx) => {
          const before = await findUserById(tx, id);
          if (!before) throw notFound(userMessages.notFound);
          if (body.is_superuser !== undefined && body.is_superuser !== before.isSuperuser) {
            assertMaySetSuperuser(actor, body.is_superuser);
          }
          const emailChanges = body.email !== undefined && body.email !== before.email;
          if (emailChanges) await assertEmailFree(tx, body.email!, id);
          const after = await updateUser(tx, id, {
            // An address an admin sets counts as verified, like one of an account it makes.
            ...(emailChanges ? { email: body.email, emailVerifiedAt: clock.now() } : {}),
            ...(body.full_name !== undefined ? { fullName: body.full_name || null } : {}),
            ...(body.is_active !== undefined ? { isActive: body.is_active } : {}),
            ...(body.is_superuser !== undefined ? { isSuperuser: body.is_superuser } : {}),
            updatedAt: clock.now(),
          });
          // Deleted by a request that committed after our read: no row to change, so a 404.
          if (!after) throw notFound(userMessages.notFound);
          if (hashedPassword !== undefined) {
            await replacePassword(tx, { userId: id, hashedPassword });
          } else if (body.is_active === false && before.isActive) {
            await sessions.revokeAllForUser(tx, id);
          }
          if (emailChanges) await verification.addressReplaced(tx, id, before.email, after.email);
          // Read back: replacePassword may have changed the row after `after` was taken.
          const final = (await findUserById(tx, id)) ?? after;
          await audit.record(tx, actor, {
            action: AUDIT_ACTIONS.userUpdate,
            targetType: AUDIT_TARGET_TYPES.user,
            targetId: id,
            before: toUserAuditSnapshot(before),
            after: toUserAuditSnapshot(final),
          });
          return final;
        });
        // The old address was told of a change of address.
        if (body.email !== undefined) wakeMailer();
        return toUserPublic(updated);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(userMessages.emailTaken, 'email_taken');
        throw error;
      }
    },

    async remove(actor: Actor, id: string): Promise<void> {
      // A 400, not a 403: the caller has the permission; the rule protects them from locking themselves out.
      if (id === actor.user.id) throw badRequest(userMessages.cannotDeleteSelf);
      if (beforeDelete) {
        if (!(await findUserById(db, id))) throw notFound(userMessages.notFound);
        await beforeDelete(id);
      }
      await db.transaction(async (tx) => {
        const before = await findUserById(tx, id);
        if (!before || !(await deleteUser(tx, id))) throw notFound(userMessages.notFound);
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.userDelete,
          targetType: AUDIT_TARGET_TYPES.user,
          targetId: id,
          before: toUserAuditSnapshot(before),
          after: null,
        });
      });
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
