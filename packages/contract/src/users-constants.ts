// No zod here (decision 030): a screen that shows only these texts or limits does not load zod.

/** Longest search text `GET /users/?q=` accepts (an e-mail address is at most 254 characters). */
export const USER_SEARCH_MAX = 254;

/**
 * Most user ids one `GET /users/?ids=` names: 100 ids keep the URL near 3.7 KB, inside what proxies
 * accept in a request line (nginx's default header buffer is 8 KB). A client with more asks in batches.
 */
export const USER_IDS_MAX = 100;

export const userListMessages = {
  invalidUserId: 'Invalid user id',
  tooManyIds: `At most ${USER_IDS_MAX} user ids at once`,
} as const;
