import type { RateLimitRule } from '../../config.js';
import type { Clock } from '../../lib/clock.js';

/** Windows remembered at most; past this the oldest is forgotten first. */
const MAX_WINDOWS = 100_000;

interface FailureWindow {
  attempts: number;
  endsAt: number;
}

/**
 * Password guesses per account, in fixed windows, kept in process memory like the other limits
 * (decision 004). Only attempts that fail count: an attempt counts from the moment it starts (so
 * guesses sent all at once are held to the budget too) and is taken back when the password was
 * right. Two budgets:
 * - per account and address: one client gets a few guesses at an account;
 * - per account over all addresses: guessing spread over many addresses stops too. One address
 *   can spend at most the first budget, so locking someone out takes several addresses.
 */
export function createLoginThrottle(deps: { clock: Clock; perAccountAndIp: RateLimitRule; perAccount: RateLimitRule }) {
  const { clock, perAccountAndIp, perAccount } = deps;
  const windows = new Map<string, FailureWindow>();

  const keysOf = (account: string, ip: string) => ({ pair: `pair:${account} ${ip}`, account: `account:${account}` });

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
    return window && window.attempts >= rule.max ? Math.max(1, Math.ceil((window.endsAt - now) / 1000)) : 0;
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
    /**
     * Counts an attempt on `account` from `ip` and answers 0, or, with a budget spent, counts
     * nothing and answers the seconds until the caller may try again.
     */
    begin(account: string, ip: string): number {
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

    /** The password was right: the attempt is taken back, and this address starts afresh. */
    succeeded(account: string, ip: string): void {
      const keys = keysOf(account, ip);
      windows.delete(keys.pair);
      const window = liveWindow(keys.account, clock.now().getTime());
      if (window) window.attempts = Math.max(0, window.attempts - 1);
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
