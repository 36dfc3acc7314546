import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { Mutation } from './types.ts';

const storedStateSchema = z.object({
  version: z.literal(1),
  anchorDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  mutations: z.array(
    z.object({
      at: z.string(),
      objectId: z.string(),
      status: z.enum(['ACTIVE', 'PAUSED']).optional(),
      dailyBudget: z.number().int().optional(),
      lifetimeBudget: z.number().int().optional(),
      by: z
        .object({ actorId: z.string(), actorName: z.string(), applicationId: z.string(), applicationName: z.string() })
        .optional(),
      before: z
        .object({
          status: z.enum(['ACTIVE', 'PAUSED', 'ARCHIVED', 'DELETED']).optional(),
          dailyBudget: z.number().int().optional(),
          lifetimeBudget: z.number().int().optional(),
        })
        .optional(),
    }),
  ),
});

export interface SandboxState {
  anchorDate: string;
  mutations: Mutation[];
}

/** The saved anchor day and write log, or undefined when there is no file yet. */
export function readState(path: string): SandboxState | undefined {
  if (!existsSync(path)) return undefined;
  const parsed = storedStateSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new Error(`meta sandbox state file ${path} is not valid: ${parsed.error.message}`);
  return {
    anchorDate: parsed.data.anchorDate,
    mutations: parsed.data.mutations.map(({ at, ...rest }) => ({ ...rest, at: Date.parse(at) })),
  };
}

/** Writes through a temporary file and a rename, so a crash never leaves half a file behind. */
export function writeState(path: string, state: SandboxState): void {
  mkdirSync(dirname(path), { recursive: true });
  const stored = {
    version: 1,
    anchorDate: state.anchorDate,
    mutations: state.mutations.map(({ at, ...rest }) => ({ at: new Date(at).toISOString(), ...rest })),
  };
  const temporary = `${path}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(stored, null, 2)}\n`);
  renameSync(temporary, path);
}
