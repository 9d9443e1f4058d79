import { createServer as createHttpServer } from 'node:http';

/** A running {@link startTokenEndpoint}. */
export interface TokenEndpointStub {
  issuer: string;
  /** Each request its token endpoint received, in order. */
  requests: TokenRequest[];
  /** What its discovery lists from now on (`undefined`: no `token_endpoint_auth_methods_supported`). */
  setMethods(methods: string[] | undefined): void;
  close(): Promise<void>;
}

/** One request the token endpoint received. */
export interface TokenRequest {
  authorization: string | undefined;
  form: URLSearchParams;
}

/**
 * A tiny provider: a discovery document listing `methods`, and a token endpoint that keeps each request it receives
 * and answers `invalid_client` (the request is what these tests look at).
 */
export async function startTokenEndpoint(methods: string[] | undefined): Promise<TokenEndpointStub> {
  const requests: TokenRequest[] = [];
  const server = createHttpServer((req, res) => {
    const issuer = `http://localhost:${(server.address() as { port: number }).port}`;
    if (req.url === '/.well-known/openid-configuration') {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          ...(methods ? { token_endpoint_auth_methods_supported: methods } : {}),
        }),
      );
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      requests.push({ authorization: req.headers.authorization, form: new URLSearchParams(body) });
      res.statusCode = 401;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ error: 'invalid_client', error_description: 'client authentication failed' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://localhost:${(server.address() as { port: number }).port}`;
  return {
    issuer,
    requests,
    setMethods: (list) => {
      methods = list;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
