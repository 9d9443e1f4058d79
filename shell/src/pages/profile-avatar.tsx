import { useState } from 'react';
import { ACCOUNT_API_BASE } from 'shared-contracts';

/** The picture `ProfileImage` answers for the signed-in person (SPEC.md §7, GET). */
export const PROFILE_IMAGE_URL = `${ACCOUNT_API_BASE}ProfileImage`;

/** The first letter (or digit) of a name, upper-cased; empty when it has none. */
export function initialOf(name: string): string {
  const first = /[\p{L}\p{N}]/u.exec(name)?.[0];
  return first ? first.toLocaleUpperCase() : '';
}

/**
 * The signed-in person's picture: the gateway's `ProfileImage`, or their initial when the picture cannot be shown
 * (a failed or refused call). Decorative: the name is written beside it, so it has no text alternative of its own.
 */
export function ProfileAvatar({ name }: { name: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <span className="shell__avatar shell__avatar--initial" aria-hidden="true" data-testid="profile-initial">
        {initialOf(name)}
      </span>
    );
  }
  return (
    <img
      className="shell__avatar"
      src={PROFILE_IMAGE_URL}
      alt=""
      width={48}
      height={48}
      data-testid="profile-image"
      onError={() => setFailed(true)}
    />
  );
}
