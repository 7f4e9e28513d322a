/**
 * The form an agent asks the user to fill (`elicitation/create`, form mode), built from its restricted JSON
 * Schema: flat properties of type string (optionally an enum, a titled `oneOf`, or a format), number, integer,
 * boolean, or an array of enum strings. Pure and plain JSON so the reducer can keep it and the webview can
 * draw it; the property schemas arrive as unknown JSON and are read defensively, one field at a time.
 */

export type StringFormat = 'email' | 'uri' | 'date' | 'date-time';

export interface ChoiceOption {
  readonly value: string;
  readonly label: string;
}

interface FieldBase {
  readonly name: string;
  readonly label: string;
  readonly description?: string;
  readonly required: boolean;
}

export type FormField =
  | (FieldBase & {
      readonly kind: 'text';
      readonly format?: StringFormat;
      readonly minLength?: number;
      readonly maxLength?: number;
      readonly pattern?: string;
      readonly default?: string;
    })
  | (FieldBase & {
      readonly kind: 'choice';
      /** Few options read best as radio buttons; more as a drop-down. */
      readonly control: 'radio' | 'select';
      readonly options: readonly ChoiceOption[];
      readonly default?: string;
    })
  | (FieldBase & {
      readonly kind: 'multi';
      readonly options: readonly ChoiceOption[];
      readonly minItems?: number;
      readonly maxItems?: number;
      readonly default?: readonly string[];
    })
  | (FieldBase & {
      readonly kind: 'number';
      readonly integer: boolean;
      readonly minimum?: number;
      readonly maximum?: number;
      readonly default?: number;
    })
  | (FieldBase & { readonly kind: 'boolean'; readonly default?: boolean });

export interface FormModel {
  readonly title?: string;
  readonly description?: string;
  readonly fields: readonly FormField[];
  /** Properties the form cannot draw (an unknown or malformed type), by name. */
  readonly unsupported: readonly string[];
}

/** Up to this many options a single choice is drawn as radio buttons. */
export const RADIO_MAX_OPTIONS = 4;

type Json = Readonly<Record<string, unknown>>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const count = (value: unknown): number | undefined => {
  const n = num(value);
  return n !== undefined && Number.isInteger(n) && n >= 0 ? n : undefined;
};
const FORMATS: readonly StringFormat[] = ['email', 'uri', 'date', 'date-time'];

/** `{properties, required, title, description}` of the requested schema, as it arrived. */
export interface RequestedSchemaShape {
  readonly title?: string | null;
  readonly description?: string | null;
  readonly properties: Readonly<Record<string, unknown>>;
  readonly required?: readonly string[] | null;
}

export function formModelFrom(schema: RequestedSchemaShape): FormModel {
  const required = new Set(schema.required ?? []);
  const fields: FormField[] = [];
  const unsupported: string[] = [];
  for (const [name, property] of Object.entries(schema.properties)) {
    const field = isRecord(property) ? fieldFrom(name, property, required.has(name)) : undefined;
    if (field) fields.push(field);
    else unsupported.push(name);
  }
  return {
    ...(schema.title ? { title: schema.title } : {}),
    ...(schema.description ? { description: schema.description } : {}),
    fields,
    unsupported,
  };
}

function fieldFrom(name: string, property: Json, required: boolean): FormField | undefined {
  const description = str(property['description']);
  const base: FieldBase = { name, label: str(property['title']) || name, required, ...(description ? { description } : {}) };
  switch (property['type']) {
    case 'string':
      return stringField(base, property);
    case 'number':
    case 'integer': {
      const integer = property['type'] === 'integer';
      const fit = (value: unknown): number | undefined => {
        const n = num(value);
        return n !== undefined && (!integer || Number.isInteger(n)) ? n : undefined;
      };
      return compact({
        ...base,
        kind: 'number' as const,
        integer,
        minimum: fit(property['minimum']),
        maximum: fit(property['maximum']),
        default: fit(property['default']),
      });
    }
    case 'boolean':
      return compact({
        ...base,
        kind: 'boolean' as const,
        default: typeof property['default'] === 'boolean' ? property['default'] : undefined,
      });
    case 'array':
      return multiField(base, property);
    default:
      return undefined;
  }
}

function stringField(base: FieldBase, property: Json): FormField | undefined {
  const options = optionsOf(property['oneOf']) ?? plainOptions(property['enum']);
  const fallback = str(property['default']);
  if (options) {
    if (options.length === 0) return undefined;
    const control: 'radio' | 'select' = options.length <= RADIO_MAX_OPTIONS ? 'radio' : 'select';
    const chosen = options.some((option) => option.value === fallback) ? fallback : undefined;
    return compact({ ...base, kind: 'choice' as const, control, options, default: chosen });
  }
  const format = FORMATS.find((candidate) => candidate === property['format']);
  const pattern = str(property['pattern']);
  return compact({
    ...base,
    kind: 'text' as const,
    format,
    minLength: count(property['minLength']),
    maxLength: count(property['maxLength']),
    pattern: pattern !== undefined && compiles(pattern) ? pattern : undefined,
    default: fallback,
  });
}

function multiField(base: FieldBase, property: Json): FormField | undefined {
  const items = property['items'];
  if (!isRecord(items)) return undefined;
  const options = optionsOf(items['anyOf']) ?? (items['type'] === 'string' ? plainOptions(items['enum']) : undefined);
  if (!options || options.length === 0) return undefined;
  const fallback = Array.isArray(property['default'])
    ? property['default'].filter((value): value is string => options.some((option) => option.value === value))
    : undefined;
  return compact({
    ...base,
    kind: 'multi' as const,
    options,
    minItems: count(property['minItems']),
    maxItems: count(property['maxItems']),
    default: fallback,
  });
}

/** Titled options (`oneOf`/`anyOf` of `{const, title}`); undefined when absent, so plain `enum` is tried. */
function optionsOf(list: unknown): ChoiceOption[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.flatMap((item): ChoiceOption[] => {
    if (!isRecord(item)) return [];
    const value = str(item['const']);
    return value === undefined ? [] : [{ value, label: str(item['title']) || value }];
  });
}

function plainOptions(list: unknown): ChoiceOption[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.filter((value): value is string => typeof value === 'string').map((value) => ({ value, label: value }));
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}

/** Drops keys whose value is undefined, so the state holds only what the schema said (and compares cleanly). */
function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value)) if (Reflect.get(value, key) === undefined) Reflect.deleteProperty(value, key);
  return value;
}
