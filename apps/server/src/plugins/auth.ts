import {
  authMessages,
  emailVerificationMessages,
  twoFactorMessages,
  userMessages,
  type PermissionName,
} from '@dataplatform/contract';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, forbidden, unauthorized } from '../lib/errors.js';
import type { Actor, AuthContext, HasPermission } from '../lib/auth-context.js';

/**
 * Who may call a route. Every API route must declare one (the server refuses to start otherwise):
 * - `public`: anyone; a valid bearer token is still read, so handlers may use it;
 * - `user`: any signed-in, active user;
 * - `verified`: a signed-in, active user whose e-mail address is verified (subscribing and
 *   downloading, decision 029); others get a 403 `email_not_verified`;
 * - `{ permission }`: a signed-in user holding that permission (superusers hold them all);
 * - `superuser`: superusers only, whatever roles grant (single sign-on connections, SSO-1).
 */
export type Access = 'public' | 'user' | 'verified' | 'superuser' | { permission: PermissionName };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export interface AuthPluginOptions {
  /** The live session and user a bearer token names; throws a 401 for any other token. */
  authenticate: (token: string) => Promise<AuthContext>;
  hasPermission: HasPermission;
  /**
   * Whether this caller must turn two-factor sign-in on before any permission-guarded (admin)
   * route answers: superusers while REQUIRE_SUPERUSER_2FA is on (decision 026).
   */
  twoFactorEnrollmentRequired: (auth: AuthContext) => Promise<boolean>;
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The caller of a route whose access is not `public`: always set once the guard has run. */
export function currentAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized(authMessages.notAuthenticated);
  return request.auth;
}

/** The caller and where the call came from, for services that write the audit log. */
export function currentActor(request: FastifyRequest): Actor {
  return { ...currentAuth(request), ip: request.ip };
}

export const authPlugin = fp<AuthPluginOptions>(
  async (app: FastifyInstance, options) => {
    app.decorateRequest('auth', null);

    // Deny by default: a route without a declared access level is a programming error.
    app.addHook('onRoute', (route) => {
      if (route.config?.access === undefined) {
        throw new Error(`Route ${[route.method].flat().join(',')} ${route.url} declares no access level`);
      }
    });

    // An answer for a signed-in caller (or to a route that needs one, errors included) is theirs
    // alone: no shared or browser cache may keep it.
    app.addHook('onSend', (request, reply, payload, done) => {
      const personal =
        request.routeOptions.config.access !== 'public' ||
        request.auth !== null ||
        request.headers.authorization !== undefined;
      const current = reply.getHeader('cache-control');
      if (personal && !(typeof current === 'string' && current.includes('no-store'))) {
        reply.header('cache-control', 'no-store');
      }
      done(null, payload);
    });

    /** The guard for a route that needs a caller, or a public one called with a token. */
    async function admit(request: FastifyRequest, access: Access | undefined, token: string | undefined) {
      if (access === 'public') {
        if (token) request.auth = await options.authenticate(token).catch(() => null);
        return;
      }
      if (!token) throw unauthorized(authMessages.notAuthenticated);
      const auth = await options.authenticate(token);
      request.auth = auth;
      // Binds onto the request's own logger: cheaper than a child logger per request.
      (request.log as FastifyBaseLogger & { setBindings(bindings: object): void }).setBindings({
        userId: auth.user.id,
      });
      if (access === 'user' || access === undefined) return;
      if (access === 'verified') {
        if (auth.user.emailVerifiedAt === null) {
          throw new AppError('email_not_verified', emailVerificationMessages.notVerified);
        }
        return;
      }
      if (access === 'superuser') {
        if (!auth.user.isSuperuser) throw forbidden(userMessages.notEnoughPrivileges);
        return;
      }
      if (!(await options.hasPermission(auth, access.permission))) {
        throw forbidden(userMessages.notEnoughPrivileges);
      }
      if (await options.twoFactorEnrollmentRequired(auth)) {
        throw new AppError('two_factor_enrollment_required', twoFactorMessages.enrollmentRequired);
      }
    }

    // A callback hook: an anonymous call of a public route (sign-in, sign-up, the contact form, the
    // web app's files) has nothing to wait for, and an async hook would cost each a promise.
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.is404) return done();
      const access = request.routeOptions.config.access;
      const token = bearerToken(request);
      if (access === 'public' && !token) return done();
      admit(request, access, token).then(() => done(), done);
    });
  },
  { name: 'auth', dependencies: ['error-handler'] },
);
