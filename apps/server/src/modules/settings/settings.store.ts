import type { DatabaseHandle, Transactions, Unlisten } from '@adpilot/db';
import { SETTINGS_FIELDS, type SettingsField } from '@adpilot/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config/env.ts';
import {
  resolveSettings,
  type ProviderSettings,
  type ResolvedSettings,
  type SavedSettings,
  type SettingsReader,
} from '../../config/runtime-settings.ts';
import type { SecretBox } from '../../lib/crypto.ts';
import { SETTINGS_CHANNEL, type SettingsRepository } from './settings.repository.ts';

export interface SettingsStoreDeps {
  config: Pick<Config, 'settingsEnv' | 'smtpSecure'>;
  transactions: Transactions;
  database: Pick<DatabaseHandle, 'listen'>;
  repository: SettingsRepository;
  secretBox: SecretBox;
  log: FastifyBaseLogger;
}

const isField = (key: string): key is SettingsField => (SETTINGS_FIELDS as readonly string[]).includes(key);

/**
 * The instance's settings held in memory: the environment and defaults from the start, the saved rows once `start`
 * has read them, and again after every save in any process (LISTEN/NOTIFY; ADR 0044). This is the settings seam the
 * providers read (`current`, `subscribe`).
 */
export class SettingsStore implements SettingsReader {
  private resolved: ResolvedSettings;
  private readonly listeners = new Set<(settings: ProviderSettings) => void>();
  private stopListening?: Unlisten;
  /** Loads may overlap (a save here and a notification): only the newest one's answer is kept. */
  private loadSequence = 0;
  private latestLoad: Promise<void> = Promise.resolve();

  constructor(private readonly deps: SettingsStoreDeps) {
    this.resolved = resolveSettings(deps.config, {});
  }

  current(): ProviderSettings {
    return this.resolved.providers;
  }

  /** Values after precedence and their sources, for the Settings page. */
  details(): ResolvedSettings {
    return this.resolved;
  }

  subscribe(listener: (settings: ProviderSettings) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async start(): Promise<void> {
    const reload = () => {
      this.reload().catch((error: unknown) => this.deps.log.error({ err: error }, 'settings reload failed'));
    };
    // A save anywhere notifies; after the listening connection was lost and is back, a save may have been missed.
    this.stopListening = await this.deps.database.listen(SETTINGS_CHANNEL, {
      onMessage: reload,
      onReset: (listening) => {
        if (listening) reload();
      },
    });
    await this.reload();
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
    this.stopListening = undefined;
  }

  /**
   * Reads the saved rows again and tells the subscribers when anything changed. Resolves once the held settings are
   * at least as new as the rows when it was called.
   */
  reload(): Promise<void> {
    this.latestLoad = this.load(++this.loadSequence);
    return this.latestLoad;
  }

  private async load(sequence: number): Promise<void> {
    const rows = await this.deps.transactions.system('settings: load', (tx) => this.deps.repository.all(tx));
    // A newer load started meanwhile: its answer is at least as new as ours, so wait for it instead.
    if (sequence !== this.loadSequence) return this.latestLoad;
    const saved: SavedSettings = {};
    for (const row of rows) {
      if (!isField(row.key)) continue;
      try {
        saved[row.key] = row.sealed ? this.deps.secretBox.decrypt(row.value) : row.value;
      } catch {
        // Sealed with another application secret: the value is unreadable here, as if it were not set.
        this.deps.log.warn({ field: row.key }, 'a saved setting cannot be opened with this application secret');
      }
    }
    const next = resolveSettings(this.deps.config, saved);
    const changed = JSON.stringify(next) !== JSON.stringify(this.resolved);
    this.resolved = next;
    if (!changed) return;
    for (const listener of this.listeners) {
      try {
        listener(next.providers);
      } catch (error) {
        this.deps.log.error({ err: error }, 'a settings subscriber failed');
      }
    }
  }
}
