// No zod here (decision 030): a screen that shows only these texts or limits does not load zod.
/** Page size bounds shared by every paged collection (`skip`/`limit`). */
export const PAGE_LIMIT_DEFAULT = 100;

export const PAGE_LIMIT_MAX = 1000;
