import { z } from 'zod';
import { sessionSchema } from './auth.ts';

// Apart from demo.ts: the web's first download takes the demo's constants without zod (ADR 0138).
/** POST /api/demo/session: a demo session (signed in as the demo's visitor, a viewer) and its workspace. */
export const demoSessionSchema = sessionSchema.extend({
  workspaceId: z.uuid(),
  expiresAt: z.iso.datetime(),
});
export type DemoSession = z.infer<typeof demoSessionSchema>;
