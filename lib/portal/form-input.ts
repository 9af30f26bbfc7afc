/**
 * A portal form's fields, read with a zod schema. The schema gives the form's shape only (which
 * fields, trimmed or as typed, coerced how); whether a value is acceptable, and the message when it is
 * not, stay with the services (lib/portal/*.ts), which tests hold to their exact words. A field the
 * form lacks reads as '' (as an empty input does). A value that is not text (a file where a text field
 * belongs), or a post that is not a form at all, only comes from a hand-made request: it is refused
 * with a message, never a stack.
 */
import { z } from 'zod';

/** Text without surrounding spaces: names, ids, reasons, choices. '' when the form lacks the field. */
export const trimmedText = z.string().trim().default('');
/** Text exactly as sent: passwords (spaces may be part of them), pasted lists, confirmations. */
export const verbatimText = z.string().default('');

/** A form's schema: an object of fields, usually built from trimmedText and verbatimText. */
export type FormSchema = z.ZodType<object>;

type FormRead<S extends FormSchema> = { ok: true; input: z.output<S> } | { ok: false; error: string };

export const UNREADABLE_FORM = 'This form could not be read: reload the page and send it again.';

export function readForm<S extends FormSchema>(schema: S, form: unknown): FormRead<S> {
  if (!(form instanceof FormData)) return { ok: false, error: UNREADABLE_FORM };
  // The first value of each name, as FormData.get gives it; names the schema does not list are dropped.
  const fields: Record<string, FormDataEntryValue> = {};
  for (const [name, value] of form) if (!(name in fields)) fields[name] = value;
  const parsed = schema.safeParse(fields);
  if (parsed.success) return { ok: true, input: parsed.data };
  const name = parsed.error.issues[0]?.path.join('.');
  return {
    ok: false,
    error: name
      ? `This form's "${name}" field could not be read: reload the page and send the form again.`
      : UNREADABLE_FORM,
  };
}
