import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { JsonSchema } from './openapi.types';

/** Which side of a schema a use reads: what a client sends (`input`) or what the api writes (`output`). */
export type SchemaSide = 'input' | 'output';

/** Where a named schema lives in the document. */
export const COMPONENT_SCHEMAS = '#/components/schemas/';

/** Ids given to the schemas used in place, never seen in the document: they are inlined. */
const IN_PLACE = '__in_place_';

/**
 * The zod schemas of one document as JSON Schema 2020-12 (zod's own `toJSONSchema`). A named
 * schema becomes `components.schemas[name]` and every use of it, at any depth, a `$ref` to it;
 * any other schema is written in place. Requests read a schema's input side (defaults optional,
 * coercions as the client sends them) and answers its output side; a named schema used on both
 * sides must read the same on each, else the build fails and asks for two names.
 *
 * Usage: {@link use} hands out an empty object for every place a schema goes, and
 * {@link resolve} fills them all at once and returns the components.
 */
export class SchemaComponents {
  private readonly names = new Map<z.ZodType, string>();
  private readonly uses: Array<{ schema: z.ZodType; side: SchemaSide; slot: JsonSchema }> = [];

  constructor(named: Readonly<Record<string, z.ZodType>>) {
    for (const [name, schema] of Object.entries(named)) {
      if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new Error(`schema name '${name}' is not a valid component name ([A-Za-z0-9._-])`);
      const taken = this.names.get(schema);
      if (taken) throw new Error(`one schema is named twice: '${taken}' and '${name}'`);
      this.names.set(schema, name);
    }
  }

  /** The place for `schema`, read on `side`; filled by {@link resolve}. */
  use(schema: z.ZodType, side: SchemaSide): JsonSchema {
    const slot: JsonSchema = {};
    this.uses.push({ schema, side, slot });
    return slot;
  }

  /** Fills every place handed out and returns `components.schemas`: the named schemas some use reaches. */
  resolve(): Record<string, JsonSchema> {
    const sides = { input: this.convert('input'), output: this.convert('output') };
    for (const { schema, side, slot } of this.uses) Object.assign(slot, sides[side].uses.get(schema));
    const components: Record<string, JsonSchema> = {};
    const reached = { input: this.reached(sides.input), output: this.reached(sides.output) };
    for (const name of this.names.values()) {
      const forms = (['output', 'input'] as const).filter((side) => reached[side].has(name)).map((side) => sides[side].named[name]!);
      if (forms.length === 0) continue;
      if (forms.length === 2 && !isDeepStrictEqual(forms[0], forms[1])) {
        throw new Error(`schema '${name}' is used in a request and in an answer and reads differently in each (defaults, coercions, unknown keys): give each side its own name`);
      }
      components[name] = forms[0]!;
    }
    return components;
  }

  /** Every named schema and every use of `side`, converted in one pass so that shared names become `$ref`s. */
  private convert(side: SchemaSide): { named: Record<string, JsonSchema>; uses: Map<z.ZodType, JsonSchema> } {
    const registry = z.registry<{ id: string }>();
    for (const [schema, name] of this.names) registry.add(schema, { id: name });
    const inPlace = new Map<z.ZodType, string>();
    for (const use of this.uses) {
      if (use.side !== side || this.names.has(use.schema) || inPlace.has(use.schema)) continue;
      const id = `${IN_PLACE}${inPlace.size}`;
      inPlace.set(use.schema, id);
      registry.add(use.schema, { id });
    }
    const { schemas } = z.toJSONSchema(registry, {
      target: 'draft-2020-12',
      io: side,
      // A transform or custom check has no JSON Schema form: documented as any value, checked by the code.
      unrepresentable: 'any',
      uri: (id) => `${COMPONENT_SCHEMAS}${id}`,
    }) as { schemas: Record<string, JsonSchema> };
    if (schemas['__shared']) throw new Error('a recursive schema without a name cannot be written in place: name it');
    const raw = new Map(Object.entries(schemas).map(([id, json]) => [id, withoutIdentity(json)]));
    // A schema used in place may also sit inside another one, which zod then wrote as a $ref to it.
    const inline = (json: unknown, depth = 0): unknown => {
      if (depth > 64) throw new Error('a schema used in place refers to itself: name it');
      if (Array.isArray(json)) return json.map((item) => inline(item, depth));
      if (json === null || typeof json !== 'object') return json;
      const { $ref, ...rest } = json as JsonSchema;
      const target = typeof $ref === 'string' && $ref.startsWith(`${COMPONENT_SCHEMAS}${IN_PLACE}`) ? raw.get($ref.slice(COMPONENT_SCHEMAS.length)) : undefined;
      const own = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, inline(value, depth)]));
      if (!target) return $ref === undefined ? own : { $ref, ...own };
      return { ...(inline(target, depth + 1) as JsonSchema), ...own };
    };
    const named = Object.fromEntries([...this.names.values()].map((name) => [name, inline(raw.get(name)) as JsonSchema]));
    const uses = new Map<z.ZodType, JsonSchema>();
    for (const use of this.uses) {
      if (use.side !== side) continue;
      const name = this.names.get(use.schema);
      uses.set(use.schema, name ? { $ref: `${COMPONENT_SCHEMAS}${name}` } : (inline(raw.get(inPlace.get(use.schema)!)) as JsonSchema));
    }
    return { named, uses };
  }

  /** The names the uses of a side reach, directly or through other named schemas. */
  private reached(side: { named: Record<string, JsonSchema>; uses: Map<z.ZodType, JsonSchema> }): Set<string> {
    const found = new Set<string>();
    const pending = [...side.uses.values()].flatMap(refsIn);
    while (pending.length > 0) {
      const name = pending.pop()!;
      if (found.has(name)) continue;
      found.add(name);
      pending.push(...refsIn(side.named[name]));
    }
    return found;
  }
}

/** The component names a JSON Schema refers to. */
function refsIn(json: unknown): string[] {
  if (Array.isArray(json)) return json.flatMap(refsIn);
  if (json === null || typeof json !== 'object') return [];
  return Object.entries(json).flatMap(([key, value]) =>
    key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_SCHEMAS) ? [value.slice(COMPONENT_SCHEMAS.length)] : refsIn(value),
  );
}

/** A schema without the `$schema` and `$id` zod writes on each: the document sets the dialect once, and components are found by path. */
function withoutIdentity(json: JsonSchema): JsonSchema {
  const { $schema: _dialect, $id: _id, ...rest } = json;
  return rest;
}
