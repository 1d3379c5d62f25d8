// The rate limits' rules (decision 049 counts them); tests and the bench replace them through `config`.

export interface RateLimitRule {
  /** Requests allowed per window. */
  max: number;
  windowMs: number;
}

const MINUTE = 60_000;

/** A type, not an interface: `uniformRateLimits` builds one from its keys. */
export type RateLimits = {
  loginPerIp: RateLimitRule;
  /** Failed logins only (see modules/auth/login-throttle.ts). */
  loginFailuresPerAccountAndIp: RateLimitRule;
  loginFailuresPerAccount: RateLimitRule;
  /** Failed two-factor codes only, counted like failed passwords (decision 026). */
  twoFactorFailuresPerAccountAndIp: RateLimitRule;
  twoFactorFailuresPerAccount: RateLimitRule;
  recoveryPerIp: RateLimitRule;
  recoveryPerAccount: RateLimitRule;
  resetPerIp: RateLimitRule;
  signupPerIp: RateLimitRule;
  signupPerAccount: RateLimitRule;
  contactPerIp: RateLimitRule;
  /** Following verification links (decision 029). */
  verifyEmailPerIp: RateLimitRule;
  /** Asking for a new verification e-mail, per signed-in account. */
  verificationMailPerAccount: RateLimitRule;
  /** Questions to the agent and compiled plans, per signed-in account. */
  agentPerAccount: RateLimitRule;
  /** Share links made, per signed-in account. */
  shareLinksPerAccount: RateLimitRule;
  /** Views and runs through one share link, whoever holds it. */
  shareLinkRequests: RateLimitRule;
  /** Lesson checks (issue 60), per signed-in account: each reads the tenant's Studio tables. */
  learnChecksPerAccount: RateLimitRule;
};

export const defaultRateLimits: RateLimits = {
  loginPerIp: { max: 30, windowMs: 5 * MINUTE },
  loginFailuresPerAccountAndIp: { max: 10, windowMs: 15 * MINUTE },
  loginFailuresPerAccount: { max: 50, windowMs: 15 * MINUTE },
  twoFactorFailuresPerAccountAndIp: { max: 5, windowMs: 15 * MINUTE },
  twoFactorFailuresPerAccount: { max: 20, windowMs: 15 * MINUTE },
  recoveryPerIp: { max: 10, windowMs: 15 * MINUTE },
  recoveryPerAccount: { max: 3, windowMs: 15 * MINUTE },
  resetPerIp: { max: 10, windowMs: 15 * MINUTE },
  signupPerIp: { max: 10, windowMs: 60 * MINUTE },
  signupPerAccount: { max: 3, windowMs: 60 * MINUTE },
  contactPerIp: { max: 5, windowMs: 15 * MINUTE },
  verifyEmailPerIp: { max: 20, windowMs: 15 * MINUTE },
  verificationMailPerAccount: { max: 3, windowMs: 15 * MINUTE },
  // The guided builder compiles as choices change; the daily token budget is what bounds a model's cost.
  agentPerAccount: { max: 120, windowMs: MINUTE },
  shareLinksPerAccount: { max: 20, windowMs: MINUTE },
  // 200 people opening a six-block report at once is 1 400 requests: a link shown to a crowd still works.
  shareLinkRequests: { max: 5_000, windowMs: MINUTE },
  // A learner presses "Check my work" after each step; 30 a minute is far above that, and bounds the reads.
  learnChecksPerAccount: { max: 30, windowMs: MINUTE },
};

/** Every rate limit set to one rule: how tests and the bench lift them all out of the way at once. */
export function uniformRateLimits(rule: RateLimitRule): RateLimits {
  return Object.fromEntries(Object.keys(defaultRateLimits).map((key) => [key, rule])) as RateLimits;
}
