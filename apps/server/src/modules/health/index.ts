// The health module's public face: what the rest of the server may import from it (ADR 0171).
export { createHealthModule } from './health.module.ts';
