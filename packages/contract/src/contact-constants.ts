// No zod here (decision 030): a screen that shows only these texts or limits does not load zod.
export const CONTACT_NAME_MIN = 2;

export const CONTACT_SUBJECT_MIN = 5;

export const CONTACT_MESSAGE_MIN = 10;

export const contactMessages = {
  nameTooShort: `Name must be at least ${CONTACT_NAME_MIN} characters`,
  emailInvalid: 'Invalid email address',
  subjectTooShort: `Subject must be at least ${CONTACT_SUBJECT_MIN} characters`,
  messageTooShort: `Message must be at least ${CONTACT_MESSAGE_MIN} characters`,
  success: "Thank you for your message. We'll get back to you soon!",
  failure: 'Failed to send message. Please try again later.',
  /** The form refused while messages cannot be counted (decision 049). */
  unavailable: 'Messages cannot be sent right now. Try again shortly.',
} as const;

export const CONTACT_STATUSES = ['new', 'read', 'replied', 'archived', 'spam'] as const;

export const contactSubmissionMessages = {
  notFound: 'Contact submission not found',
} as const;
