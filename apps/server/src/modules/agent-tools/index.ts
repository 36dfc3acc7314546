// The agent-tools module's public face: what the rest of the server may import from it (ADR 0171).
export { createAgentToolsModule } from './agent-tools.module.ts';
export type { ToolCallObserver, ToolCaller, ToolCalls } from './tool-calls.ts';
