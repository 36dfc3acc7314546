// The reports module's public face: what the rest of the server may import from it (ADR 0171).
export { createReportsModule } from './reports.module.ts';
export type { ReportScheduleOptions } from './reports.module.ts';
export { xlsx } from './xlsx.ts';
