'use client';
import type { ReactNode } from 'react';
/** A form's submit button that shows it is working while its server action runs. */
import { useFormStatus } from 'react-dom';

export function SubmitButton({
  children,
  pendingText,
  className,
  name,
  value,
}: {
  children: ReactNode;
  pendingText?: string;
  className?: string;
  /** For a form with several submit buttons: which one was pressed is sent as name=value. */
  name?: string;
  value?: string;
}) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" name={name} value={value} disabled={pending} className={className} aria-busy={pending}>
      {pending ? (pendingText ?? 'Working…') : children}
    </button>
  );
}
