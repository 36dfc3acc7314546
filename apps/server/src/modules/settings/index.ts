// The settings module's public face: what the rest of the server may import from it (ADR 0171).
export { createSettingsModule } from './settings.module.ts';
export { SettingsRepository } from './settings.repository.ts';
export { SettingsStore } from './settings.store.ts';
