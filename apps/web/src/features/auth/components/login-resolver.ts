import { loginRequestSchema } from '@adpilot/contracts';
import { zodResolver } from '@hookform/resolvers/zod';

/** The login form's validation, in a chunk of its own (lib/lazy-resolver.ts, ADR 0138). */
export const loginResolver = zodResolver(loginRequestSchema);
