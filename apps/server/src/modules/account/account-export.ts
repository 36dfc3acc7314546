import {
  ACCOUNT_EXPORT_HOURS,
  ACCOUNT_EXPORT_MAIL,
  ACCOUNT_MESSAGES,
  exportLogsQuerySchema,
  type AccountWorkspace,
} from '@adpilot/contracts';
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../lib/app-error.ts';
import { zip } from '../../lib/zip.ts';
import type { Mailer } from '../../providers/mail/mailer.ts';
import type { ActivityService } from '../activity/index.ts';
import type { ApiTokensService } from '../agents/index.ts';
import type { AuthService } from '../auth/index.ts';
import type { NotificationsService } from '../notifications/index.ts';
import type { RulesService } from '../rules/index.ts';
import type { HandoverService } from '../workspaces/index.ts';

export interface AccountExportDeps {
  auth: Pick<AuthService, 'me'>;
  notifications: Pick<NotificationsService, 'get'>;
  handover: Pick<HandoverService, 'accountWorkspaces'>;
  rules: Pick<RulesService, 'list'>;
  activity: Pick<ActivityService, 'exportChunks'>;
  tokens: Pick<ApiTokensService, 'list'>;
  mailer: Mailer;
  /** Where prepared exports wait for their download (DATA_DIR/exports, private). */
  folder: string;
  publicUrl: string;
  now: () => Date;
}

const HOUR_MS = 3_600_000;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

async function collect(chunks: AsyncGenerator<string>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');

/** A CSV cell: quoted when it holds a separator, a quote or a line break. */
function csvCell(value: unknown): string {
  const text =
    value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csv(rows: Record<string, unknown>[], columns: string[]): Buffer {
  const lines = [columns.join(','), ...rows.map((row) => columns.map((column) => csvCell(row[column])).join(','))];
  return Buffer.from(`${lines.join('\n')}\n`, 'utf8');
}

/**
 * "Export my data" (PDPA, issue 31): a ZIP of JSON and CSV with the person's profile and memberships, and for each
 * workspace they own its rules, activity and API credentials' metadata, asked of the modules that hold them (the
 * presenters never carry a password hash, a token or a sealed secret). It waits on disk under the hash of a random
 * token; the e-mailed link carries the token and works once (the file is claimed by renaming it), for 24 hours.
 */
export class AccountExport {
  constructor(private readonly deps: AccountExportDeps) {}

  /** The job's work: builds the ZIP, keeps it under the token's hash and mails the link. */
  async prepare(userId: string): Promise<void> {
    const { auth, notifications, handover } = this.deps;
    const user = await auth.me(userId);
    const settings = await notifications.get(userId);
    const workspaces = await handover.accountWorkspaces(userId);
    const files = [
      {
        name: 'profile.json',
        data: json({
          id: user.id,
          name: user.name,
          email: user.email,
          language: settings.language,
          timeZone: settings.timeZone,
        }),
      },
      {
        name: 'memberships.json',
        data: json(workspaces.map(({ id, name, role, personal }) => ({ id, name, role, personal }))),
      },
      {
        name: 'memberships.csv',
        data: csv(workspaces as unknown as Record<string, unknown>[], ['id', 'name', 'role', 'personal']),
      },
    ];
    for (const workspace of workspaces.filter((w) => w.role === 'owner'))
      files.push(...(await this.workspaceFiles(userId, workspace)));

    const expiresAt = new Date(this.deps.now().getTime() + ACCOUNT_EXPORT_HOURS * HOUR_MS);
    const token = randomBytes(32).toString('base64url');
    // Private whatever the umask (ADR 0095): a mode given at creation is masked, so it is set again.
    await mkdir(this.deps.folder, { recursive: true, mode: 0o700 });
    await chmod(this.deps.folder, 0o700);
    await this.purgeExpired();
    const file = join(this.deps.folder, `${hashOf(token)}.${expiresAt.getTime()}.zip`);
    await writeFile(file, zip(files), { mode: 0o600 });
    await chmod(file, 0o600);
    const link = `${this.deps.publicUrl}/api/account/export/${token}`;
    await this.deps.mailer.send({ to: user.email, expiresAt, ...ACCOUNT_EXPORT_MAIL[settings.language](link) });
  }

  private async workspaceFiles(userId: string, workspace: AccountWorkspace) {
    const scope = { workspaceId: workspace.id, userId };
    const folder = `workspaces/${workspace.id}`;
    const rules = await this.deps.rules.list(scope);
    const activityJson = await collect(
      this.deps.activity.exportChunks(scope, exportLogsQuerySchema.parse({ format: 'json' })),
    );
    const activityCsv = await collect(
      this.deps.activity.exportChunks(scope, exportLogsQuerySchema.parse({ format: 'csv' })),
    );
    const tokens = await this.deps.tokens.list(scope, 'owner');
    return [
      { name: `${folder}/workspace.json`, data: json({ id: workspace.id, name: workspace.name }) },
      { name: `${folder}/rules.json`, data: json(rules) },
      {
        name: `${folder}/rules.csv`,
        data: csv(rules as unknown as Record<string, unknown>[], [
          'id',
          'name',
          'isActive',
          'conditions',
          'actions',
          'schedule',
          'createdAt',
        ]),
      },
      { name: `${folder}/activity.json`, data: Buffer.from(activityJson, 'utf8') },
      { name: `${folder}/activity.csv`, data: Buffer.from(activityCsv, 'utf8') },
      { name: `${folder}/api-tokens.json`, data: json(tokens) },
    ];
  }

  /**
   * The download: the file is claimed by renaming it (of two requests with one link, one rename succeeds) and
   * removed once read. A used, expired or unknown link is a 404.
   */
  async claim(token: string): Promise<Buffer> {
    const prefix = `${hashOf(token)}.`;
    const names = await readdir(this.deps.folder).catch(() => [] as string[]);
    const name = names.find((entry) => entry.startsWith(prefix) && entry.endsWith('.zip'));
    const gone = AppError.notFound(ACCOUNT_MESSAGES.exportLinkGone);
    if (!name) throw gone;
    const file = join(this.deps.folder, name);
    const claimed = `${file}.claimed-${randomBytes(6).toString('hex')}`;
    try {
      await rename(file, claimed);
    } catch {
      throw gone;
    }
    try {
      if (Number(name.slice(prefix.length, -'.zip'.length)) <= this.deps.now().getTime()) throw gone;
      return await readFile(claimed);
    } finally {
      await rm(claimed, { force: true });
    }
  }

  /** Exports past their 24 hours are deleted when the next one is made. */
  private async purgeExpired(): Promise<void> {
    const now = this.deps.now().getTime();
    for (const name of await readdir(this.deps.folder)) {
      const expires = /^[0-9a-f]{64}\.(\d+)\.zip$/.exec(name)?.[1];
      if (expires && Number(expires) <= now) await rm(join(this.deps.folder, name), { force: true });
    }
  }
}
