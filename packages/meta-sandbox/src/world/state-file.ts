import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { Mutation } from './types.ts';

const storedMutationSchema = z.object({
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
});

const anchorDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** Version 1: one world, the only one there was; it loads as the default world. */
const storedStateV1Schema = z.object({
  version: z.literal(1),
  anchorDate: anchorDateSchema,
  mutations: z.array(storedMutationSchema),
});

/** Version 2: every world the sandbox has met, by key ('' is the default world), each with its writes. */
const storedStateV2Schema = z.object({
  version: z.literal(2),
  anchorDate: anchorDateSchema,
  worlds: z.record(z.string().max(64), z.object({ mutations: z.array(storedMutationSchema) })),
});

const storedStateSchema = z.discriminatedUnion('version', [storedStateV1Schema, storedStateV2Schema]);

type StoredMutation = z.infer<typeof storedMutationSchema>;

export interface SandboxState {
  anchorDate: string;
  /** Each world's write log, by world key ('' for the default world). */
  worlds: Map<string, Mutation[]>;
}

function loadMutations(stored: StoredMutation[]): Mutation[] {
  return stored.map(({ at, ...rest }) => ({ ...rest, at: Date.parse(at) }));
}

/** The saved anchor day and write logs, or undefined when there is no file yet. */
export function readState(path: string): SandboxState | undefined {
  if (!existsSync(path)) return undefined;
  const parsed = storedStateSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) throw new Error(`meta sandbox state file ${path} is not valid: ${parsed.error.message}`);
  const stored = parsed.data;
  const worlds =
    stored.version === 1
      ? new Map([['', loadMutations(stored.mutations)]])
      : new Map(Object.entries(stored.worlds).map(([key, world]) => [key, loadMutations(world.mutations)]));
  return { anchorDate: stored.anchorDate, worlds };
}

/**
 * Writes through a temporary file and a rename, so a crash never leaves half a file behind; the temporary file's name
 * is this writer's own, so two sandboxes saving to one path at once each rename a whole file, the last one winning.
 */
export function writeState(path: string, state: SandboxState): void {
  mkdirSync(dirname(path), { recursive: true });
  const worlds: Record<string, { mutations: unknown[] }> = {};
  for (const [key, mutations] of state.worlds) {
    worlds[key] = { mutations: mutations.map(({ at, ...rest }) => ({ at: new Date(at).toISOString(), ...rest })) };
  }
  const stored = { version: 2, anchorDate: state.anchorDate, worlds };
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(stored, null, 2)}\n`);
  renameSync(temporary, path);
}
