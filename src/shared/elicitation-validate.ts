/**
 * Checks what the user entered against the form (elicitation-form.ts) and builds the `content` sent to the
 * agent. The webview runs it to show errors inline; the host runs it again on what the webview posted, because
 * the webview is not trusted: only content that passes here reaches the agent.
 */
import type { FormField, FormModel } from './elicitation-form';

export type ElicitationValue = string | number | boolean | readonly string[];
export type ElicitationContent = Readonly<Record<string, ElicitationValue>>;

export type FormCheck =
  | { readonly ok: true; readonly content: ElicitationContent }
  | { readonly ok: false; readonly errors: Readonly<Record<string, string>> };

// Deliberately loose, like browsers' type=email: the agent's server does the real check.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;
const DATE = /^\d{4}-\d{2}-\d{2}$/u;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/u;

/** `values`: field name -> what was entered (untrusted: any JSON). Empty strings and empty lists mean "not given". */
export function checkForm(model: FormModel, values: Readonly<Record<string, unknown>>): FormCheck {
  const content: Record<string, ElicitationValue> = {};
  const errors: Record<string, string> = {};
  for (const field of model.fields) {
    const result = checkField(field, values[field.name]);
    if (typeof result === 'object' && 'error' in result) errors[field.name] = result.error;
    else if (result !== undefined) content[field.name] = result;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, content };
}

/** The values a fresh form starts with: each field's default, if it has one. */
export function initialValues(model: FormModel): Record<string, ElicitationValue> {
  const values: Record<string, ElicitationValue> = {};
  for (const field of model.fields) if (field.default !== undefined) values[field.name] = field.default;
  return values;
}

type FieldResult = ElicitationValue | undefined | { readonly error: string };

function checkField(field: FormField, raw: unknown): FieldResult {
  if (isEmpty(raw)) return field.required ? { error: 'Required.' } : undefined;
  switch (field.kind) {
    case 'text':
      return typeof raw === 'string' ? checkText(field, raw) : { error: 'Expected text.' };
    case 'choice':
      return typeof raw === 'string' && field.options.some((option) => option.value === raw)
        ? raw
        : { error: 'Choose one of the options.' };
    case 'multi':
      return checkMulti(field, raw);
    case 'number':
      return checkNumber(field, raw);
    case 'boolean':
      return typeof raw === 'boolean' ? raw : { error: 'Expected yes or no.' };
  }
}

function isEmpty(raw: unknown): boolean {
  return raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '') || (Array.isArray(raw) && raw.length === 0);
}

/** Bounds the work an agent's `pattern` can cause on one answer. */
export const MAX_TEXT_LENGTH = 10_000;

function checkText(field: Extract<FormField, { kind: 'text' }>, text: string): FieldResult {
  if (text.length > MAX_TEXT_LENGTH) return { error: `At most ${MAX_TEXT_LENGTH} characters.` };
  const length = [...text].length;
  if (field.minLength !== undefined && length < field.minLength) return { error: `At least ${field.minLength} characters.` };
  if (field.maxLength !== undefined && length > field.maxLength) return { error: `At most ${field.maxLength} characters.` };
  if (field.pattern !== undefined && !new RegExp(field.pattern, 'u').test(text))
    return { error: `Does not match the expected pattern ${field.pattern}.` };
  switch (field.format) {
    case 'email':
      return EMAIL.test(text) ? text : { error: 'Not an email address.' };
    case 'uri':
      return isUri(text) ? text : { error: 'Not a URI (scheme:rest).' };
    case 'date':
      return DATE.test(text) && !Number.isNaN(Date.parse(text)) ? text : { error: 'Not a date (YYYY-MM-DD).' };
    case 'date-time':
      return DATE_TIME.test(text) && !Number.isNaN(Date.parse(text)) ? text : { error: 'Not a date and time (YYYY-MM-DDThh:mm:ssZ).' };
    case undefined:
      return text;
  }
}

function isUri(text: string): boolean {
  if (!/^[a-z][a-z0-9+.-]*:/iu.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

function checkMulti(field: Extract<FormField, { kind: 'multi' }>, raw: unknown): FieldResult {
  if (!Array.isArray(raw) || !raw.every((item): item is string => typeof item === 'string'))
    return { error: 'Expected a list of options.' };
  if (!raw.every((item) => field.options.some((option) => option.value === item))) return { error: 'Choose only from the options.' };
  const chosen = [...new Set(raw)];
  if (field.minItems !== undefined && chosen.length < field.minItems) return { error: `Choose at least ${field.minItems}.` };
  if (field.maxItems !== undefined && chosen.length > field.maxItems) return { error: `Choose at most ${field.maxItems}.` };
  return chosen;
}

function checkNumber(field: Extract<FormField, { kind: 'number' }>, raw: unknown): FieldResult {
  // A text box posts what was typed; a number posted as a number is accepted too.
  const value =
    typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/u.test(raw) ? Number(raw) : NaN;
  if (!Number.isFinite(value)) return { error: 'Expected a number.' };
  if (field.integer && !Number.isInteger(value)) return { error: 'Expected a whole number.' };
  if (field.minimum !== undefined && value < field.minimum) return { error: `At least ${field.minimum}.` };
  if (field.maximum !== undefined && value > field.maximum) return { error: `At most ${field.maximum}.` };
  return value;
}
