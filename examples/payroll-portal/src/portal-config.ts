/** The portal's settings, from the environment (see README.md). */
export interface PortalConfig {
  port: number;
  /** The identity service's issuer (its PUBLIC_URL). */
  issuer: string;
  clientId: string;
  /** Only for a confidential registration; the demo client is public and uses PKCE alone. */
  clientSecret: string | undefined;
  redirectUri: string;
  postLogoutRedirectUri: string;
}

/** Reads the environment; throws one line per bad value. */
export function loadPortalConfig(env: NodeJS.ProcessEnv = process.env): PortalConfig {
  const port = Number(env.PORT ?? 4000);
  const problems: string[] = [];
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push('PORT: must be a port number');
  const origin = `http://localhost:${port}`;
  const config: PortalConfig = {
    port,
    issuer: (env.ISSUER ?? 'http://localhost:8080').replace(/\/+$/, ''),
    clientId: env.CLIENT_ID ?? 'payroll-portal',
    clientSecret: env.CLIENT_SECRET || undefined,
    redirectUri: env.REDIRECT_URI ?? `${origin}/callback`,
    postLogoutRedirectUri: env.POST_LOGOUT_REDIRECT_URI ?? `${origin}/`,
  };
  for (const [name, value] of [
    ['ISSUER', config.issuer],
    ['REDIRECT_URI', config.redirectUri],
    ['POST_LOGOUT_REDIRECT_URI', config.postLogoutRedirectUri],
  ] as const) {
    try {
      if (!['http:', 'https:'].includes(new URL(value).protocol))
        problems.push(`${name}: must be an http(s) URL`);
    } catch {
      problems.push(`${name}: must be an http(s) URL`);
    }
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return config;
}
