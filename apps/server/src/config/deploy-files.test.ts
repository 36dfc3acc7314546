import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES } from './env.ts';

/**
 * Docker does not run where the suite runs: these tests hold the Dockerfile and compose.yaml to the code instead.
 * Every variable they set is one the server reads, and every command they run is a script the package has.
 */
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
const known = new Set(ENV_VARIABLES);

/** The Dockerfile's instructions, continuation lines joined, comments left out. */
function instructions(): { keyword: string; rest: string }[] {
  return read('Dockerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), rest: rest.join(' ') };
    });
}

/** `npm run x`, `npm start`, `npm test` in a command (shell or exec form): the package scripts it names. */
function npmScripts(command: string): string[] {
  const words = command.replace(/[[\]",]/g, ' ').split(/\s+/);
  const named: string[] = [];
  words.forEach((word, index) => {
    if (word !== 'npm') return;
    const verb = words[index + 1];
    if (verb === 'run' || verb === 'run-script') named.push(words[index + 2] ?? '');
    else if (verb === 'start' || verb === 'test') named.push(verb);
  });
  return named;
}

interface ComposeService {
  build?: unknown;
  image?: string;
  environment?: Record<string, unknown> | string[];
  command?: string | string[];
  entrypoint?: string | string[];
}

function services(): Record<string, ComposeService> {
  return (parse(read('compose.yaml'), { merge: true }) as { services: Record<string, ComposeService> }).services;
}

/** The services that run the AdPilot image (built from the Dockerfile). */
function adpilotServices(): [string, ComposeService][] {
  return Object.entries(services()).filter(([, service]) => service.build !== undefined);
}

const names = (environment: ComposeService['environment']) =>
  Array.isArray(environment) ? environment.map((entry) => entry.split('=')[0] ?? '') : Object.keys(environment ?? {});

describe('Dockerfile', () => {
  it('sets and reads only variables the server reads', () => {
    const set = instructions()
      .filter(({ keyword }) => keyword === 'ENV')
      .flatMap(({ rest }) => [...rest.matchAll(/([A-Z_][A-Z0-9_]*)=/g)].map((match) => match[1] ?? ''));
    expect(set).toEqual(expect.arrayContaining(['NODE_ENV', 'PORT', 'DATA_DIR']));
    const read = instructions()
      .filter(({ keyword }) => keyword === 'HEALTHCHECK')
      .flatMap(({ rest }) => [...rest.matchAll(/process\.env\.([A-Z_][A-Z0-9_]*)/g)].map((match) => match[1] ?? ''));
    expect(read.length).toBeGreaterThan(0);
    expect([...set, ...read].filter((name) => !known.has(name))).toEqual([]);
  });

  it('runs only package scripts that exist, and starts the built server', () => {
    const commands = instructions().filter(({ keyword }) => ['RUN', 'CMD', 'ENTRYPOINT'].includes(keyword));
    const named = commands.flatMap(({ rest }) => npmScripts(rest));
    expect(named).toEqual(expect.arrayContaining(['build', 'serve']));
    expect(named.filter((script) => !scripts.includes(script))).toEqual([]);
    const cmd = commands.filter(({ keyword }) => keyword === 'CMD').at(-1);
    expect(npmScripts(cmd?.rest ?? '')).toEqual(['serve']);
  });

  it('runs as a user other than root, with a health check on the readiness probe', () => {
    const user = instructions()
      .filter(({ keyword }) => keyword === 'USER')
      .at(-1);
    expect(user?.rest).toMatch(/^(?!root\b|0\b)\S+/);
    expect(instructions().find(({ keyword }) => keyword === 'HEALTHCHECK')?.rest).toContain('/api/ready');
  });

  it('copies the manifest of every workspace package before installing', () => {
    const copied = instructions()
      .filter(({ keyword }) => keyword === 'COPY')
      .flatMap(({ rest }) => rest.split(/\s+/));
    const workspaces = ['apps', 'packages'].flatMap((folder) =>
      readdirSync(join(root, folder), { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(root, folder, entry.name, 'package.json')))
        .map((entry) => `${folder}/${entry.name}/package.json`),
    );
    for (const manifest of workspaces) {
      // Once from the build context and once from the build stage.
      expect(copied.filter((source) => source === manifest || source === `/app/${manifest}`)).toHaveLength(2);
    }
  });
});

describe('compose.yaml', () => {
  it('runs an API and a worker from the image, on a Postgres with a volume and a health check', () => {
    const all = services();
    const roles = Object.fromEntries(
      adpilotServices().map(([name, service]) => [name, (service.environment as Record<string, unknown>).ROLE]),
    );
    expect(roles).toEqual({ api: 'api', worker: 'worker' });
    expect(all.postgres?.image).toMatch(/^postgres:1[56]\b/);
    const postgres = all.postgres as ComposeService & { volumes?: string[]; healthcheck?: unknown };
    expect(postgres.volumes?.some((volume) => volume.endsWith(':/var/lib/postgresql/data'))).toBe(true);
    expect(postgres.healthcheck).toBeDefined();
    for (const [, service] of adpilotServices()) {
      expect((service as { depends_on?: Record<string, { condition: string }> }).depends_on?.postgres).toEqual({
        condition: 'service_healthy',
      });
    }
  });

  it('sets only variables the server reads', () => {
    const unknown = adpilotServices().flatMap(([name, service]) =>
      names(service.environment)
        .filter((variable) => !known.has(variable))
        .map((variable) => `${name}: ${variable}`),
    );
    expect(unknown).toEqual([]);
  });

  it('runs only package scripts that exist', () => {
    for (const [, service] of adpilotServices()) {
      for (const command of [service.command, service.entrypoint].filter((value) => value !== undefined)) {
        const text = Array.isArray(command) ? command.join(' ') : command;
        const named = npmScripts(text);
        expect(named.length, `${text} is not a package script`).toBeGreaterThan(0);
        expect(named.filter((script) => !scripts.includes(script))).toEqual([]);
      }
    }
  });

  it('gives the worker a probe port and the way to the API', () => {
    const worker = services().worker?.environment as Record<string, unknown>;
    expect(worker.HEALTH_PORT).toBeDefined();
    expect(worker.INTERNAL_URL).toMatch(/^http:\/\/api:/);
  });
});
