import { randomUUID } from 'node:crypto';
import {
  AUDIT_ACTIONS,
  AUDIT_TARGET_TYPES,
  SSO_HANDOFF_TTL_MINUTES,
  ssoMessages,
  authMessages,
  type PaginationQuery,
  type SsoCallbackError,
  type SsoConnectionCreate,
  type SsoConnectionPublic,
  type SsoConnectionsPublic,
  type SsoConnectionUpdate,
  type SsoExchangeResponse,
  type SsoLink,
} from '@dataplatform/contract';
import type { FastifyBaseLogger } from 'fastify';
import * as oidc from 'openid-client';
import type { Config } from '../../config.js';
import type { Database, DbOrTx } from '../../db/client.js';
import type { Actor } from '../../lib/auth-context.js';
import { addMinutes, type Clock } from '../../lib/clock.js';
import { generateToken, sha256 } from '../../lib/crypto.js';
import {
  AppError,
  badRequest,
  conflict,
  describeError,
  fieldError,
  isUniqueViolation,
  notFound,
} from '../../lib/errors.js';
import { mapPage } from '../../lib/pagination.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { AuditService } from '../audit/audit.service.js';
import type { SessionMeta, SessionService } from '../sessions/sessions.service.js';
import { findUserByEmail, findUserById, type UserRow } from '../users/users.service.js';
import { toSsoConnectionAuditSnapshot, toSsoConnectionPublic } from './sso.mapper.js';
import {
  addTenantMember,
  countFailedLink,
  deleteConnection,
  deleteExpired,
  domainsTakenElsewhere,
  findConnection,
  findConnectionByDomain,
  findIdentity,
  findLiveHandoff,
  insertConnection,
  insertFlow,
  insertHandoff,
  insertIdentity,
  insertSsoUser,
  isRecoveryClosed,
  listConnections,
  replaceDomains,
  takeFlow,
  takeHandoff,
  tenantExists,
  updateConnection,
  type SsoConnectionRow,
  type SsoHandoffRow,
} from './sso.repository.js';

/** How long a sign-in may take at the provider before its state is forgotten. */
const FLOW_TTL_MINUTES = 10;
/** Wrong passwords a link step takes before its code dies (the IP limit on the route comes first). */
const LINK_ATTEMPTS_MAX = 5;
/** Seconds to wait for the provider's discovery, token and key answers. */
const PROVIDER_TIMEOUT_SECONDS = 10;

/** The path of the callback under the API; the provider sends the browser there. */
export const SSO_CALLBACK_PATH = '/api/v1/sso/callback';
/** The web page the callback hands the browser to, with `#code=…` or `#error=…`. */
const SSO_PAGE_PATH = '/login/sso';

/** The outcome of a callback: where to send the browser. */
export interface CallbackOutcome {
  location: string;
}

class CallbackFailure extends Error {
  constructor(readonly reason: SsoCallbackError) {
    super(reason);
  }
}

const providerUnavailable = () => new AppError('sso_provider_unavailable', ssoMessages.providerUnavailable);

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * Single sign-on with OpenID Connect (decision 028): superusers manage connections; people sign in
 * with the authorization code flow (PKCE, state, nonce, ID token checked against the issuer's keys)
 * through `openid-client`.
 */
export function createSsoService(deps: {
  db: Database;
  config: Config;
  clock: Clock;
  log: FastifyBaseLogger;
  secrets: SecretBox;
  sessions: SessionService;
  audit: AuditService;
}) {
  const { db, config, clock, log, secrets, sessions, audit } = deps;
  const redirectUri = `${config.frontendHost}${SSO_CALLBACK_PATH}`;
  const pageUrl = `${config.frontendHost}${SSO_PAGE_PATH}`;
  const target = (id: string) => ({ targetType: AUDIT_TARGET_TYPES.ssoConnection, targetId: id });

  async function getExisting(tx: DbOrTx, id: string) {
    const row = await findConnection(tx, id);
    if (!row) throw notFound(ssoMessages.notFound);
    return row;
  }

  async function checkDomainsAndTenant(
    tx: DbOrTx,
    connectionId: string | null,
    body: { domains?: string[]; tenant_id?: string | null },
  ) {
    if (body.domains && (await domainsTakenElsewhere(tx, body.domains, connectionId)).length > 0) {
      throw conflict(ssoMessages.domainTaken);
    }
    if (body.tenant_id && !(await tenantExists(tx, body.tenant_id))) {
      throw fieldError(['body', 'tenant_id'], ssoMessages.tenantNotFound);
    }
  }

  /** A unique key lost to a concurrent write: the name or a domain was taken meanwhile. */
  function uniqueTaken(error: unknown): never {
    if (isUniqueViolation(error)) throw conflict(ssoMessages.domainTaken);
    throw error;
  }

  /** The provider's configuration, discovered from its issuer, checking ID tokens' signatures too. */
  async function discover(connection: SsoConnectionRow): Promise<oidc.Configuration> {
    const secret = secrets.open(connection.clientSecretSealed, connection.id);
    const issuer = new URL(connection.issuer);
    const configuration = await oidc.discovery(issuer, connection.clientId, undefined, oidc.ClientSecretPost(secret), {
      timeout: PROVIDER_TIMEOUT_SECONDS,
      // The contract lets http through only for a provider on this machine (development, tests).
      ...(issuer.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
    });
    // Without this, openid-client trusts an ID token from the token endpoint unsigned-checked (TLS is
    // its proof); SSO-3 asks for the signature against the issuer's JWKS.
    oidc.enableNonRepudiationChecks(configuration);
    return configuration;
  }

  /** An actor for the audit log when the person acting is the one signing in. */
  function selfActor(user: UserRow, ip: string | null): Actor {
    return { user, sessionId: '', roleNames: [], ip };
  }

  async function newHandoff(
    tx: DbOrTx,
    values: Omit<SsoHandoffRow, 'codeHash' | 'createdAt' | 'expiresAt' | 'failedAttempts'>,
  ) {
    const code = generateToken();
    await insertHandoff(tx, {
      ...values,
      codeHash: sha256(code),
      expiresAt: addMinutes(clock.now(), SSO_HANDOFF_TTL_MINUTES),
    });
    return code;
  }

  /**
   * After the provider's answer was verified: the account to sign in to, made on the first sign-in
   * or waiting for its password when the address already has one (SSO-4, SSO-5). Answers the
   * one-time code for the web page.
   */
  async function signInVerified(
    connection: SsoConnectionRow,
    claims: { sub: string; email: string; name: string | null },
    ip: string | null,
  ): Promise<string> {
    // argon2 is slow on purpose: hash the unusable password of a new account outside the transaction.
    const unusablePassword = await hashPassword(generateToken());
    return db.transaction(async (tx) => {
      const identity = await findIdentity(tx, connection.id, claims.sub);
      if (identity) {
        const user = await findUserById(tx, identity.userId);
        if (!user) throw new CallbackFailure('sso_failed');
        if (!user.isActive) throw new CallbackFailure('inactive_user');
        await audit.record(tx, selfActor(user, ip), {
          action: AUDIT_ACTIONS.ssoSignIn,
          targetType: AUDIT_TARGET_TYPES.user,
          targetId: user.id,
          before: null,
          after: { connection_id: connection.id, account_created: false },
        });
        return newHandoff(tx, { kind: 'session', userId: user.id, connectionId: connection.id, subject: claims.sub });
      }
      const existing = await findUserByEmail(tx, claims.email);
      if (existing) {
        // Never linked silently: the owner of the account proves its password first (SSO-5).
        return newHandoff(tx, { kind: 'link', userId: existing.id, connectionId: connection.id, subject: claims.sub });
      }
      const user = await insertSsoUser(tx, {
        email: claims.email,
        hashedPassword: unusablePassword,
        fullName: claims.name,
        // The provider vouched for the address (email_verified, SSO-3).
        emailVerifiedAt: clock.now(),
      });
      await insertIdentity(tx, {
        connectionId: connection.id,
        subject: claims.sub,
        userId: user.id,
        createdAccount: true,
      });
      if (connection.tenantId) await addTenantMember(tx, connection.tenantId, user.id);
      await audit.record(tx, selfActor(user, ip), {
        action: AUDIT_ACTIONS.ssoSignIn,
        targetType: AUDIT_TARGET_TYPES.user,
        targetId: user.id,
        before: null,
        after: { connection_id: connection.id, account_created: true, tenant_id: connection.tenantId },
      });
      return newHandoff(tx, { kind: 'session', userId: user.id, connectionId: connection.id, subject: claims.sub });
    });
  }

  function claimsOf(
    connection: SsoConnectionRow & { domains: string[] },
    tokens: { claims(): oidc.IDToken | undefined },
  ) {
    const claims = tokens.claims();
    if (!claims) throw new CallbackFailure('sso_failed');
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    // Only `true` counts: a missing claim or the string "true" is not the provider's word (SSO-3).
    if (claims.email_verified !== true) throw new CallbackFailure('email_unverified');
    if (!email.includes('@') || !connection.domains.includes(domainOf(email))) {
      throw new CallbackFailure('domain_not_allowed');
    }
    const name = typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name.trim().slice(0, 255) : null;
    return { sub: claims.sub, email, name };
  }

  return {
    async list(page: PaginationQuery): Promise<SsoConnectionsPublic> {
      return mapPage(await listConnections(db, page), toSsoConnectionPublic);
    },

    async create(actor: Actor, body: SsoConnectionCreate): Promise<SsoConnectionPublic> {
      const id = randomUUID();
      const created = await db
        .transaction(async (tx) => {
          await checkDomainsAndTenant(tx, null, body);
          await insertConnection(tx, {
            id,
            name: body.name,
            issuer: body.issuer,
            clientId: body.client_id,
            // Sealed to the connection's id like a tenant's database URL to the tenant's.
            clientSecretSealed: secrets.seal(body.client_secret, id),
            tenantId: body.tenant_id,
            allowPasswordRecovery: body.allow_password_recovery,
          });
          await replaceDomains(tx, id, body.domains);
          const row = await getExisting(tx, id);
          await audit.record(tx, actor, {
            action: AUDIT_ACTIONS.ssoConnectionCreate,
            ...target(id),
            before: null,
            after: toSsoConnectionAuditSnapshot(row),
          });
          return row;
        })
        .catch(uniqueTaken);
      return toSsoConnectionPublic(created);
    },

    async update(actor: Actor, id: string, body: SsoConnectionUpdate): Promise<SsoConnectionPublic> {
      const updated = await db
        .transaction(async (tx) => {
          const before = await getExisting(tx, id);
          await checkDomainsAndTenant(tx, id, body);
          await updateConnection(tx, id, {
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(body.issuer !== undefined ? { issuer: body.issuer } : {}),
            ...(body.client_id !== undefined ? { clientId: body.client_id } : {}),
            ...(body.client_secret !== undefined ? { clientSecretSealed: secrets.seal(body.client_secret, id) } : {}),
            ...(body.tenant_id !== undefined ? { tenantId: body.tenant_id } : {}),
            ...(body.allow_password_recovery !== undefined
              ? { allowPasswordRecovery: body.allow_password_recovery }
              : {}),
            updatedAt: clock.now(),
          });
          if (body.domains) await replaceDomains(tx, id, body.domains);
          const after = await getExisting(tx, id);
          await audit.record(tx, actor, {
            action: AUDIT_ACTIONS.ssoConnectionUpdate,
            ...target(id),
            before: toSsoConnectionAuditSnapshot(before),
            after: toSsoConnectionAuditSnapshot(after),
          });
          return after;
        })
        .catch(uniqueTaken);
      return toSsoConnectionPublic(updated);
    },

    /** Removes the connection; accounts it made stay, and may then recover their password. */
    async remove(actor: Actor, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const before = await getExisting(tx, id);
        await deleteConnection(tx, id);
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.ssoConnectionDelete,
          ...target(id),
          before: toSsoConnectionAuditSnapshot(before),
          after: null,
        });
      });
    },

    /**
     * Starts a sign-in for `email`: its domain picks the connection (SSO-2). Answers the provider's
     * authorization URL and the secret the browser keeps in a cookie, binding the callback to it.
     * The answer depends on the domain alone, never on whether the address has an account.
     */
    async start(email: string): Promise<{ authorizationUrl: string; browserSecret: string }> {
      const now = clock.now();
      await deleteExpired(db, now);
      const found = await findConnectionByDomain(db, domainOf(email));
      if (!found) throw badRequest(ssoMessages.notConfigured, 'sso_not_configured');
      let configuration: oidc.Configuration;
      try {
        configuration = await discover(found);
      } catch (error) {
        log.warn({ connectionId: found.id, err: describeError(error) }, 'sso discovery failed');
        throw providerUnavailable();
      }
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const browserSecret = generateToken();
      const flowId = randomUUID();
      await insertFlow(db, {
        id: flowId,
        stateHash: sha256(state),
        browserHash: sha256(browserSecret),
        connectionId: found.id,
        nonce,
        codeVerifierSealed: secrets.seal(codeVerifier, flowId),
        expiresAt: addMinutes(now, FLOW_TTL_MINUTES),
      });
      const url = oidc.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        login_hint: email,
      });
      return { authorizationUrl: url.href, browserSecret };
    },

    /**
     * The provider sent the browser back (SSO-3): the state must name a live flow started by this
     * browser; openid-client checks the state, the PKCE verifier, the ID token's signature against
     * the issuer's JWKS, its issuer, audience, expiry and nonce. Any failure sends the browser to the
     * page with an error code and signs no one in.
     */
    async callback(query: string, browserSecret: string | undefined, ip: string | null): Promise<CallbackOutcome> {
      const params = new URLSearchParams(query);
      const state = params.get('state');
      try {
        if (!state || !browserSecret) throw new CallbackFailure('sso_failed');
        const flow = await takeFlow(db, sha256(state), clock.now());
        if (!flow || flow.browserHash !== sha256(browserSecret)) throw new CallbackFailure('sso_failed');
        const connection = await findConnection(db, flow.connectionId);
        if (!connection) throw new CallbackFailure('sso_failed');
        let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
        try {
          const configuration = await discover(connection);
          const currentUrl = new URL(redirectUri);
          currentUrl.search = params.toString();
          tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
            pkceCodeVerifier: secrets.open(flow.codeVerifierSealed, flow.id),
            expectedState: state,
            expectedNonce: flow.nonce,
            idTokenExpected: true,
          });
        } catch (error) {
          log.warn({ connectionId: connection.id, err: describeError(error) }, 'sso callback refused');
          throw new CallbackFailure('sso_failed');
        }
        const claims = claimsOf(connection, tokens);
        const code = await signInVerified(connection, claims, ip);
        return { location: `${pageUrl}#code=${encodeURIComponent(code)}` };
      } catch (error) {
        if (error instanceof CallbackFailure) return { location: `${pageUrl}#error=${error.reason}` };
        if (isUniqueViolation(error)) return { location: `${pageUrl}#error=sso_failed` };
        throw error;
      }
    },

    /** The web page trades the one-time code for a session, or learns a password is needed first. */
    async exchange(code: string, meta: SessionMeta): Promise<SsoExchangeResponse> {
      const codeHash = sha256(code);
      const handoff = await findLiveHandoff(db, codeHash, clock.now());
      if (!handoff) throw badRequest(ssoMessages.invalidCode, 'sso_invalid_code');
      const user = await findUserById(db, handoff.userId);
      if (!user) throw badRequest(ssoMessages.invalidCode, 'sso_invalid_code');
      if (handoff.kind === 'link') return { status: 'link_required', email: user.email };
      if (!(await takeHandoff(db, codeHash))) throw badRequest(ssoMessages.invalidCode, 'sso_invalid_code');
      if (!user.isActive) throw badRequest(authMessages.inactiveUser, 'inactive_user');
      return { status: 'signed_in', access_token: await sessions.issue(user.id, meta), token_type: 'bearer' };
    },

    /** Links the provider's identity to the existing account once its password is given (SSO-5). */
    async link(body: SsoLink, meta: SessionMeta): Promise<string> {
      const codeHash = sha256(body.code);
      const handoff = await findLiveHandoff(db, codeHash, clock.now());
      if (!handoff || handoff.kind !== 'link') throw badRequest(ssoMessages.invalidCode, 'sso_invalid_code');
      const user = await findUserById(db, handoff.userId);
      if (!user) throw badRequest(ssoMessages.invalidCode, 'sso_invalid_code');
      if (!(await verifyPassword(user.hashedPassword, body.password))) {
        const failed = await countFailedLink(db, codeHash);
        if (failed >= LINK_ATTEMPTS_MAX) await takeHandoff(db, codeHash);
        throw badRequest(ssoMessages.incorrectPassword, 'incorrect_password');
      }
      if (!user.isActive) throw badRequest(authMessages.inactiveUser, 'inactive_user');
      await db.transaction(async (tx) => {
        if (!(await takeHandoff(tx, codeHash))) throw badRequest(ssoMessages.invalidCode, 'sso_invalid_code');
        await insertIdentity(tx, {
          connectionId: handoff.connectionId,
          subject: handoff.subject,
          userId: user.id,
          createdAccount: false,
        });
        await audit.record(tx, selfActor(user, meta.ip), {
          action: AUDIT_ACTIONS.ssoLink,
          targetType: AUDIT_TARGET_TYPES.user,
          targetId: user.id,
          before: null,
          after: { connection_id: handoff.connectionId },
        });
      });
      return sessions.issue(user.id, meta);
    },

    /** Whether the password recovery mail must tell the user to sign in with SSO instead (SSO-6). */
    recoveryClosed: (tx: DbOrTx, userId: string) => isRecoveryClosed(tx, userId),
  };
}

export type SsoService = ReturnType<typeof createSsoService>;
