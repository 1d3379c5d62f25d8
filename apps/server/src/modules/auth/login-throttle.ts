import { authMessages } from '@dataplatform/contract';
import type { Result } from 'ioredis';
import type { RateLimitRule } from '../../config.js';
import type { Clock } from '../../lib/clock.js';
import { rateLimitUnavailable } from '../../lib/errors.js';
import type { RedisConnection } from '../../lib/redis.js';

/**
 * Password guesses per account, in fixed windows (decision 004). Only attempts that fail count: an
 * attempt counts from the moment it starts (so guesses sent all at once are held to the budget too)
 * and is taken back when the password was right. Two budgets:
 * - per account and address: one client gets a few guesses at an account;
 * - per account over all addresses: guessing spread over many addresses stops too. One address
 *   can spend at most the first budget, so locking someone out takes several addresses.
 *
 * Counted in process memory, or in Redis when it is configured, shared by every instance
 * (decision 049): the same rules and the same answers either way.
 */
export interface LoginThrottle {
  /**
   * Counts an attempt on `account` from `ip` and answers 0, or, with a budget spent, counts
   * nothing and answers the seconds until the caller may try again. Throws a 503 AppError while
   * attempts cannot be counted: sign-in fails closed.
   */
  begin(account: string, ip: string): Promise<number>;
  /** The password was right: the attempt is taken back, and this address starts afresh. */
  succeeded(account: string, ip: string): Promise<void>;
}

interface ThrottleRules {
  perAccountAndIp: RateLimitRule;
  perAccount: RateLimitRule;
}

const keysOf = (account: string, ip: string) => ({ pair: `pair:${account} ${ip}`, account: `account:${account}` });

/** Whole seconds until a window that ends in `ms` milliseconds opens, at least 1. */
const secondsOf = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Windows remembered at most; past this the oldest is forgotten first. */
const MAX_WINDOWS = 100_000;

interface FailureWindow {
  attempts: number;
  endsAt: number;
}

/** One process's count, on its clock (the default: `npm start` needs nothing else). */
export function createMemoryLoginThrottle(deps: ThrottleRules & { clock: Clock }): LoginThrottle {
  const { clock, perAccountAndIp, perAccount } = deps;
  const windows = new Map<string, FailureWindow>();

  function liveWindow(key: string, now: number): FailureWindow | undefined {
    const window = windows.get(key);
    if (window && window.endsAt <= now) {
      windows.delete(key);
      return undefined;
    }
    return window;
  }

  function secondsUntilOpen(key: string, rule: RateLimitRule, now: number): number {
    const window = liveWindow(key, now);
    return window && window.attempts >= rule.max ? secondsOf(window.endsAt - now) : 0;
  }

  function count(key: string, rule: RateLimitRule, now: number): void {
    const window = liveWindow(key, now);
    if (window) {
      window.attempts += 1;
      return;
    }
    if (windows.size >= MAX_WINDOWS) {
      const oldest = windows.keys().next().value;
      if (oldest !== undefined) windows.delete(oldest);
    }
    windows.set(key, { attempts: 1, endsAt: now + rule.windowMs });
  }

  return {
    // Synchronous inside: no other attempt can run between the check and the count.
    async begin(account, ip) {
      const now = clock.now().getTime();
      const keys = keysOf(account, ip);
      const wait = Math.max(
        secondsUntilOpen(keys.pair, perAccountAndIp, now),
        secondsUntilOpen(keys.account, perAccount, now),
      );
      if (wait > 0) return wait;
      count(keys.pair, perAccountAndIp, now);
      count(keys.account, perAccount, now);
      return 0;
    },

    async succeeded(account, ip) {
      const keys = keysOf(account, ip);
      windows.delete(keys.pair);
      const window = liveWindow(keys.account, clock.now().getTime());
      if (window) window.attempts = Math.max(0, window.attempts - 1);
    },
  };
}

/**
 * The check and the count of `begin` as one script, so that attempts arriving at once on several
 * instances are held to the budget as they are in one process. KEYS: the pair's and the account's
 * counter; ARGV: each one's max and window (ms). Answers 0 (counted) or the ms until the later of
 * the spent windows ends. A counter gets its expiry when created, in the same script; one found
 * without (never written so by us) is given a fresh window rather than blocking for ever.
 */
const BEGIN_SCRIPT = `
local wait = 0
for i = 1, 2 do
  local count = tonumber(redis.call('GET', KEYS[i]) or '0')
  if count >= tonumber(ARGV[2 * i - 1]) then
    local ttl = redis.call('PTTL', KEYS[i])
    if ttl < 0 then
      ttl = tonumber(ARGV[2 * i])
      redis.call('PEXPIRE', KEYS[i], ttl)
    end
    if ttl > wait then wait = ttl end
  end
end
if wait > 0 then return wait end
for i = 1, 2 do
  if redis.call('INCR', KEYS[i]) == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[2 * i]) end
end
return 0
`;

/** `succeeded`: the pair's failures forgotten, the account's taken back by one (its window kept). */
const SUCCEEDED_SCRIPT = `
redis.call('DEL', KEYS[1])
if tonumber(redis.call('GET', KEYS[2]) or '0') > 0 then redis.call('DECR', KEYS[2]) end
return 0
`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    loginThrottleBegin(
      pairKey: string,
      accountKey: string,
      pairMax: number,
      pairWindowMs: number,
      accountMax: number,
      accountWindowMs: number,
    ): Result<number, Context>;
    loginThrottleSucceeded(pairKey: string, accountKey: string): Result<number, Context>;
  }
}

/** Key space under REDIS_KEY_PREFIX: `login-failures:pair:<account> <ip>`, `login-failures:account:<account>`. */
const NAMESPACE = 'login-failures:';

/**
 * Shared by every instance through Redis, on Redis's clock. The rate-limit plugin's store counts
 * every request it sees and cannot take an attempt back, so the two budgets run as two small
 * scripts of their own (decision 049).
 */
export function createRedisLoginThrottle(
  deps: ThrottleRules & {
    redis: RedisConnection;
    /** Another count of its own (two-factor codes: `two-factor-failures:`); default the passwords'. */
    namespace?: string;
  },
): LoginThrottle {
  const { redis, perAccountAndIp, perAccount, namespace = NAMESPACE } = deps;
  const { client } = redis;
  client.defineCommand('loginThrottleBegin', { numberOfKeys: 2, lua: BEGIN_SCRIPT });
  client.defineCommand('loginThrottleSucceeded', { numberOfKeys: 2, lua: SUCCEEDED_SCRIPT });

  return {
    async begin(account, ip) {
      const keys = keysOf(account, ip);
      let waitMs: number;
      try {
        waitMs = await client.loginThrottleBegin(
          namespace + keys.pair,
          namespace + keys.account,
          perAccountAndIp.max,
          perAccountAndIp.windowMs,
          perAccount.max,
          perAccount.windowMs,
        );
      } catch (error) {
        // Unlimited guessing is worse than no sign-in for a while.
        redis.failed(error);
        throw rateLimitUnavailable(authMessages.signInUnavailable);
      }
      redis.succeeded();
      return waitMs > 0 ? secondsOf(waitMs) : 0;
    },

    async succeeded(account, ip) {
      const keys = keysOf(account, ip);
      try {
        await client.loginThrottleSucceeded(namespace + keys.pair, namespace + keys.account);
        redis.succeeded();
      } catch (error) {
        // The password was right: the person signs in. Their attempt stays counted, which errs on
        // the safe side, and expires with its window.
        redis.failed(error);
      }
    },
  };
}
