// The metrics module's public face: what the rest of the server may import from it (ADR 0171).
export { AppMetrics } from './app-metrics.ts';
export { createMetricsModule } from './metrics.module.ts';
