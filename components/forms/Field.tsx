'use client';
/**
 * Ties a refusal to its field: `field(name)` (ActionForm's children function, or useField() below it)
 * gives a field its name plus aria-invalid and aria-describedby (pointing at its message) when the
 * server's refusal is about it, and <FieldError> shows that message right after the field.
 */
import { type FormContext, fieldErrorId, useActionForm } from './form-context.ts';
import './forms.css';

export interface FieldProps {
  name: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

export function fieldProps(form: FormContext | null, name: string): FieldProps {
  return form?.refusal?.field === name
    ? { name, 'aria-invalid': true, 'aria-describedby': fieldErrorId(form.idPrefix, name) }
    : { name };
}

/** For fields in a component of their own inside an ActionForm (the dialogs' reason fields). */
export function useField(): (name: string) => FieldProps {
  const form = useActionForm();
  return (name) => fieldProps(form, name);
}

export function FieldError({ name }: { name: string }) {
  const form = useActionForm();
  if (!form?.refusal || form.refusal.field !== name) return null;
  return (
    // An alert too, so it is announced as it appears; the focus then on the field reads it again as its description.
    <p id={fieldErrorId(form.idPrefix, name)} className="field-error" role="alert">
      {form.refusal.error}
    </p>
  );
}
