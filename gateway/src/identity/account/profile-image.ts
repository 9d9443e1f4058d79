/** The initials of a display name: at most two letters or digits, upper-cased; nothing else gets into the SVG. */
export function initialsOf(displayName: string): string {
  return displayName
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('')
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** `ProfileImage`: a round avatar with the user's initials, as SVG. */
export function profileImageSvg(displayName: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><circle cx="32" cy="32" r="32" fill="#3d5a80"/><text x="32" y="40" font-family="sans-serif" font-size="24" text-anchor="middle" fill="#fff">${initialsOf(displayName)}</text></svg>`;
}
