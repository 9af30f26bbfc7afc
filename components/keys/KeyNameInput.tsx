'use client';
/**
 * A key's name field. It keeps whatever is typed or pasted, even past the limit (a maxLength would cut a
 * pasted name without a word), and counts the characters as the limit nears; past it, it says by how
 * much, and the server refuses the name with the same count (lib/keys/name.ts).
 */
import { useId, useState } from 'react';
import type { FieldProps } from '@/components/forms/Field.tsx';
import { KEY_NAME_MAX, keyNameLength } from '@/lib/keys/name.ts';

/** The counter appears from this many characters on, so it does not crowd short names. */
const COUNT_FROM = KEY_NAME_MAX - 20;

export function KeyNameInput({
  field,
  initial = '',
  onValue,
  autoFocus,
}: {
  field: FieldProps;
  initial?: string;
  onValue?: (value: string) => void;
  autoFocus?: boolean;
}) {
  const [value, setValue] = useState(initial);
  const counterId = useId();
  const length = keyNameLength(value);
  const over = length - KEY_NAME_MAX;
  const describedBy = [field['aria-describedby'], length >= COUNT_FROM ? counterId : null].filter(Boolean).join(' ');
  return (
    <>
      <input
        {...field}
        aria-describedby={describedBy || undefined}
        aria-invalid={field['aria-invalid'] ?? (over > 0 ? true : undefined)}
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          onValue?.(event.target.value);
        }}
        required
        // biome-ignore lint/a11y/noAutofocus: only the create dialog asks for it: its first field, where the developer types at once
        autoFocus={autoFocus}
        autoComplete="off"
      />
      {length >= COUNT_FROM ? (
        <span id={counterId} className={over > 0 ? 'field-error' : 'hint'} aria-live="polite">
          {over > 0
            ? `${length} of ${KEY_NAME_MAX} characters: shorten it by ${over}.`
            : `${length} of ${KEY_NAME_MAX} characters.`}
        </span>
      ) : null}
    </>
  );
}
