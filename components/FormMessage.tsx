/** The outcome of a form's server action, announced to screen readers. */
export function FormMessage({ state }: { state: { error?: string; message?: string } | null | undefined }) {
  if (state?.error)
    return (
      <p className="alert error" role="alert">
        {state.error}
      </p>
    );
  if (state?.message)
    return (
      <p className="alert success" role="status">
        {state.message}
      </p>
    );
  return null;
}
