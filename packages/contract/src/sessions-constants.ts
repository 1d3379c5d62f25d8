// No zod here (decision 030): a screen that shows only these texts or limits does not load zod.
export const sessionMessages = {
  notFound: 'Session not found',
  sessionsLoadFailed: 'Could not load your sessions. Please try again.',
  noOtherSessions: 'You are not signed in anywhere else.',
} as const;
