/** The part of an OpenAPI 3 document the fuzzer reads: each operation's path, parameters and JSON body schema. */
export interface JsonSchema {
  type?: string | string[];
  format?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  minLength?: number;
  minimum?: number;
  nullable?: boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  /** A named schema under `components.schemas` (the recursive rule conditions, the envelope). */
  $ref?: string;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** How many times a recursive schema is unfolded: deep enough to reach nested groups, finite for the generator. */
const REF_DEPTH = 4;

/** The schema with every `$ref` replaced by what it names, recursions unfolded `REF_DEPTH` times then left open. */
export function dereference(schema: JsonSchema, components: Record<string, JsonSchema>, depth = 0): JsonSchema {
  if (schema.$ref !== undefined) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = components[name];
    if (!target) throw new Error(`dangling reference ${schema.$ref}`);
    return depth >= REF_DEPTH ? {} : dereference(target, components, depth + 1);
  }
  const resolved: JsonSchema = { ...schema };
  const each = (list: JsonSchema[] | undefined) => list?.map((item) => dereference(item, components, depth));
  if (schema.properties) {
    resolved.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, value]) => [key, dereference(value, components, depth)]),
    );
  }
  if (schema.items) resolved.items = dereference(schema.items, components, depth);
  if (schema.anyOf) resolved.anyOf = each(schema.anyOf);
  if (schema.oneOf) resolved.oneOf = each(schema.oneOf);
  if (schema.allOf) resolved.allOf = each(schema.allOf);
  return resolved;
}

interface OperationObject {
  parameters?: { in: string; name: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

export interface Operation {
  method: string;
  /** The OpenAPI path, with `{name}` placeholders. */
  path: string;
  pathParams: string[];
  query: Record<string, JsonSchema>;
  body?: JsonSchema;
  /** Answers as server-sent events (the live log): a success never ends on its own. */
  streams: boolean;
  /** Answers a file (the log export): a success is a download, not an envelope. */
  downloads: boolean;
  /** Answers the Prometheus text format (the metrics): a success is that text, not an envelope. */
  exposition: boolean;
  /** The status codes the document lists for it (`default` when it lists one for every other). */
  documented: string[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The content types of an operation's 2xx answers. */
function successTypes(operation: OperationObject): string[] {
  return Object.entries(operation.responses ?? {})
    .filter(([status]) => status.startsWith('2'))
    .flatMap(([, answer]) => Object.keys(answer.content ?? {}));
}

/** Every operation of the document, so a route added later is fuzzed without anyone listing it. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  const components = document.components?.schemas ?? {};
  const resolve = (schema: JsonSchema | undefined) => (schema ? dereference(schema, components) : undefined);
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const parameters = operation.parameters ?? [];
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? ''),
        query: Object.fromEntries(
          parameters.filter((p) => p.in === 'query').map((p) => [p.name, resolve(p.schema) ?? {}] as const),
        ),
        body: resolve(operation.requestBody?.content?.['application/json']?.schema),
        streams: successTypes(operation).includes('text/event-stream'),
        downloads: successTypes(operation).some(
          (type) => !['application/json', 'text/event-stream', 'text/plain'].includes(type),
        ),
        exposition: successTypes(operation).includes('text/plain'),
        documented: Object.keys(operation.responses ?? {}),
      });
    }
  }
  return operations;
}
