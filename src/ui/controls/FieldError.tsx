/** One sentence saying what was wrong with an input; announced to screen readers. */
export function FieldError({ problem, id, testId }: { problem: string | null; id?: string; testId?: string }) {
  if (!problem) return null;
  return (
    <p className="field-error" id={id} role="alert" data-testid={testId}>
      {problem}
    </p>
  );
}
