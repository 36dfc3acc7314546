// The maintenance module's public face: what the rest of the server may import from it (ADR 0171).
export { createMaintenanceModule } from './maintenance.module.ts';
