import { useId, useState } from 'react';
import { Button, TextField, type TextFieldProps } from '../ui/index.js';

/**
 * The words of a Show button, already translated (this module carries no strings, so none reach a page that does not
 * show it: each page passes its own).
 */
export interface ShowPasswordStrings {
  /** The button's visible word while the password is hidden: "Show". */
  show: string;
  /** Its visible word while the password is shown: "Hide". */
  hide: string;
  /** Its name while hidden, starting with the visible word (WCAG 2.5.3): "Show password". */
  showLabel: string;
  /** Its name while shown: "Hide password". */
  hideLabel: string;
}

/**
 * The Show button at a password field's inline end: it names what it does next and says which inputs it reveals
 * (`aria-controls`). A plain button, not a toggle with `aria-pressed`, because its name changes with the state.
 */
export function ShowPasswordButton({
  shown,
  onToggle,
  controls,
  strings,
}: {
  shown: boolean;
  onToggle: () => void;
  /** The ids of the inputs it reveals. */
  controls: readonly string[];
  strings: ShowPasswordStrings;
}) {
  return (
    <Button
      variant="secondary"
      aria-label={shown ? strings.hideLabel : strings.showLabel}
      aria-controls={controls.join(' ')}
      onClick={onToggle}
    >
      {shown ? strings.hide : strings.show}
    </Button>
  );
}

/** Props of {@link PasswordField}. */
export interface PasswordFieldProps extends Omit<TextFieldProps, 'type' | 'action'> {
  strings: ShowPasswordStrings;
}

/**
 * A password input with its Show button (the current password of a change, for instance): people who mistype a
 * password they cannot see otherwise learn it only from the server's refusal.
 */
export function PasswordField({ strings, id, ...field }: PasswordFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const [shown, setShown] = useState(false);
  return (
    <TextField
      {...field}
      id={inputId}
      type={shown ? 'text' : 'password'}
      action={
        <ShowPasswordButton
          shown={shown}
          onToggle={() => setShown((was) => !was)}
          controls={[inputId]}
          strings={strings}
        />
      }
    />
  );
}
