/** The portal's two HTML pages. Every value from a token is escaped: claims are user-controlled text. */

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function layout(body: string): string {
  return `<!doctype html>
<html lang="en-GB">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Payroll portal</title></head>
<body>
<main>
<h1>Payroll portal</h1>
${body}
</main>
</body>
</html>`;
}

/** The home page of a signed-in user: name, customer and roles from the ID token. */
export function signedInPage(user: {
  name: string;
  email: string | undefined;
  roles: readonly string[];
  customer?: { id: string; name: string } | undefined;
}): string {
  const roles =
    user.roles.length > 0 ? user.roles.map((r) => `<li>${escapeHtml(r)}</li>`).join('') : '<li>none</li>';
  const customer = user.customer
    ? `<p id="customer">Customer: <strong id="customer-name">${escapeHtml(user.customer.name)}</strong> (<span id="customer-id">${escapeHtml(user.customer.id)}</span>)</p>`
    : '<p id="customer">No customer chosen</p>';
  return layout(`<p id="status">Signed in as <strong id="user-name">${escapeHtml(user.name)}</strong></p>
${user.email ? `<p id="user-email">${escapeHtml(user.email)}</p>` : ''}
${customer}
<h2>Roles</h2>
<ul id="user-roles">${roles}</ul>
<p><a id="switch-customer" href="/switch-customer">Switch customer</a></p>
<p><a id="sign-out" href="/logout">Sign out</a></p>`);
}

/** The home page without a session. */
export function signedOutPage(message?: string): string {
  return layout(`<p id="status">You are signed out</p>
${message ? `<p id="message" role="alert">${escapeHtml(message)}</p>` : ''}
<p><a id="sign-in" href="/login">Sign in</a></p>`);
}
