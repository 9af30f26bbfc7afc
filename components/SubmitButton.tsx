'use client';
import type { ReactNode } from 'react';
/** A form's submit button that shows it is working while its server action runs. */
import { useFormStatus } from 'react-dom';

export function SubmitButton({
  children,
  pendingText,
  className,
}: {
  children: ReactNode;
  pendingText?: string;
  className?: string;
}) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" disabled={pending} className={className} aria-busy={pending}>
      {pending ? (pendingText ?? 'Working…') : children}
    </button>
  );
}
