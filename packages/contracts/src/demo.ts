/**
 * The read-only demo workspace (ADR 0185). A visitor's demo session lives `DEMO_SESSION_SECONDS` at most (a refresh
 * never moves its end), an address opens `DEMO_SESSIONS_PER_HOUR` of them an hour, and the demo data is rebuilt by
 * the hourly `demo-reset` job.
 */
export const DEMO_SESSION_SECONDS = 60 * 60;
export const DEMO_SESSIONS_PER_HOUR = 10;

/**
 * The demo's two users, on the probe domain (`.invalid`, RFC 2606: nobody receives mail there, and a user on it never
 * becomes the instance's administrator): the owner who built the demo workspace and the visitor every demo session
 * signs in as. Nobody signs up or signs in with these addresses.
 */
export const DEMO_OWNER_EMAIL = 'demo-owner@adpilot.invalid';
export const DEMO_VISITOR_EMAIL = 'demo-visitor@adpilot.invalid';
export const isDemoEmail = (email: string) => [DEMO_OWNER_EMAIL, DEMO_VISITOR_EMAIL].includes(email.toLowerCase());

/** The words of the demo's refusals, in the envelope's `message`. */
export const DEMO_MESSAGES = {
  readOnly: 'This is a read-only demo: nothing can be changed, sent or exported here. Create a free account to try it.',
  unavailable: 'The demo is not available on this server.',
  preparing: 'The demo is being prepared. Please try again in a few seconds.',
  tooMany: 'Too many demo sessions from this address. Please try again later.',
} as const;
