import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Alert, TextField } from 'shared-contracts/ui';
import { useFocusOnFailure } from './use-focus-on-failure';

afterEach(cleanup);

describe('useFocusOnFailure', () => {
  it('after a failure, focus goes to the first invalid field, else to the form alert', () => {
    function Form({ failure, invalid }: { failure: unknown; invalid: boolean }) {
      const ref = useFocusOnFailure<HTMLFormElement>(failure);
      return (
        <form ref={ref}>
          {failure && !invalid ? <Alert kind="error">Wrong password</Alert> : null}
          <TextField label="Username" errors={failure && invalid ? ['Required'] : []} />
        </form>
      );
    }
    const { rerender } = render(<Form failure={undefined} invalid={false} />);
    expect(document.activeElement).toBe(document.body);
    rerender(<Form failure={{ status: 400 }} invalid />);
    expect(document.activeElement).toBe(screen.getByLabelText('Username'));
    rerender(<Form failure={{ status: 400, again: true }} invalid={false} />);
    expect(document.activeElement).toBe(screen.getByRole('alert'));
  });

  it('a preferred element wins over the alert (the emptied password after a wrong password), not over an invalid field', () => {
    function Form({ failure, invalid }: { failure: unknown; invalid: boolean }) {
      const ref = useFocusOnFailure<HTMLFormElement>(failure, 'input[name="password"]');
      return (
        <form ref={ref}>
          {failure ? <Alert kind="error">Wrong password</Alert> : null}
          <TextField label="Username" errors={failure && invalid ? ['Required'] : []} />
          <TextField label="Password" name="password" />
        </form>
      );
    }
    const { rerender } = render(<Form failure={undefined} invalid={false} />);
    rerender(<Form failure={{ status: 400 }} invalid={false} />);
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));
    rerender(<Form failure={{ status: 400, again: true }} invalid />);
    expect(document.activeElement).toBe(screen.getByLabelText('Username'));
  });
});
