import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAdminHarness, type AdminHarness } from '../../testing/admin-harness.js';
import { startTokenEndpoint, type TokenEndpointStub } from '../../testing/token-endpoint-stub.js';

const SECRET = 'upstream-client-secret-value';

describe('admin idps', () => {
  let admin: AdminHarness;
  beforeAll(async () => {
    admin = await openAdminHarness();
    await admin.run('partners', 'add', '--id', 'acme', '--name', 'Acme');
  });
  afterAll(async () => {
    await admin.close();
  });

  it('add stores a vendor provider with its roles, its secret sealed at rest', async () => {
    const out = await admin.run(
      'idps',
      'add',
      '--id',
      'contoso',
      '--name',
      'Contoso Support',
      '--issuer',
      'https://id.contoso.example/',
      '--client-id',
      'hr-identity',
      '--client-secret',
      SECRET,
      '--vendor',
      '--roles',
      'VENDOR_SUPPORT,4',
    );
    // Its discovery does not answer here: saved all the same, the method chosen once it answers.
    expect(out.split('\n')[0]).toBe('identity provider contoso added (vendor)');
    expect(out.split('\n')[1]).toMatch(/^discovery failed \(.+\); the token endpoint method is chosen when/);
    expect(await admin.store.identityProviders.findById('contoso')).toEqual({
      id: 'contoso',
      name: 'Contoso Support',
      issuer: 'https://id.contoso.example',
      clientId: 'hr-identity',
      clientSecret: SECRET,
      scopes: 'openid profile email',
      partnerId: undefined,
      vendor: true,
      roles: ['VENDOR_SUPPORT', 'VENDOR_OPERATIONS'],
      buttonLabel: undefined,
      trustUpstreamMfa: false,
      disabled: false,
      tokenAuthMethod: undefined,
      tokenAuthMethodInUse: undefined,
    });
    const [event] = await admin.store.audit.list({ kinds: ['console.upstreams.created'] });
    expect(event?.data).toMatchObject({ subject: 'contoso', vendor: true });
    expect(JSON.stringify(event)).not.toContain(SECRET);
    const row = await admin.store.database.db
      .selectFrom('identity_providers')
      .select('client_secret_enc')
      .where('id', '=', 'contoso')
      .executeTakeFirstOrThrow();
    expect(row.client_secret_enc).not.toContain(SECRET);
  });

  it('add stores a partner login provider with scopes and a button label', async () => {
    expect(
      await admin.run(
        'idps',
        'add',
        '--id',
        'google',
        '--name',
        'Google',
        '--issuer',
        'https://accounts.google.example',
        '--client-id',
        'g',
        '--client-secret',
        SECRET,
        '--partner',
        'acme',
        '--scopes',
        'openid email',
        '--button-label',
        'Sign in with Google',
        '--trust-upstream-mfa',
        'true',
      ),
    ).toMatch(/^identity provider google added \(login provider\)\n/);
    expect(await admin.store.identityProviders.findById('google')).toMatchObject({
      partnerId: 'acme',
      scopes: 'openid email',
      vendor: false,
      roles: [],
      buttonLabel: 'Sign in with Google',
      trustUpstreamMfa: true,
    });
  });

  it('list shows every provider and never its client secret', async () => {
    const out = await admin.run('idps', 'list');
    expect(out.split('\n')).toHaveLength(2);
    expect(out).toContain(
      'contoso\tContoso Support\thttps://id.contoso.example\tclient hr-identity\tvendor VENDOR_SUPPORT,VENDOR_OPERATIONS',
    );
    expect(out).toContain('google\tGoogle');
    expect(out).not.toContain(SECRET);
  });

  it('update changes only what is given; "-" clears the partner and label', async () => {
    expect(
      await admin.run(
        'idps',
        'update',
        '--id',
        'google',
        '--name',
        'Google Workspace',
        '--partner',
        '-',
        '--button-label',
        '-',
      ),
    ).toBe('identity provider google updated');
    expect(await admin.store.identityProviders.findById('google')).toMatchObject({
      name: 'Google Workspace',
      partnerId: undefined,
      buttonLabel: undefined,
      scopes: 'openid email',
      clientSecret: SECRET,
    });
    await admin.run(
      'idps',
      'update',
      '--id',
      'contoso',
      '--roles',
      'VENDOR_PARTNER',
      '--client-secret',
      'new-secret',
    );
    expect(await admin.store.identityProviders.findById('contoso')).toMatchObject({
      roles: ['VENDOR_PARTNER'],
      clientSecret: 'new-secret',
    });
  });

  const base = ['--name', 'X', '--issuer', 'https://x.example', '--client-id', 'c', '--client-secret', 's'];
  it.each([
    [
      ['--id', 'Bad Id', ...base],
      'error: --id: "Bad Id" must be 1–63 lower-case letters, digits, "-" or "_" (it is part of the callback address)',
    ],
    [
      ['--id', 'x1', ...base.slice(0, 2), '--issuer', 'ftp://x.example', ...base.slice(4)],
      'error: --issuer: "ftp://x.example" is not an http(s) URL',
    ],
    [['--id', 'x2', ...base, '--scopes', 'profile email'], 'error: --scopes must include openid'],
    [['--id', 'x3', ...base, '--partner', 'nobody'], 'error: no partner "nobody"'],
    [
      ['--id', 'x4', ...base, '--vendor'],
      'error: a --vendor provider needs --roles (VENDOR_SUPPORT, VENDOR_OPERATIONS, VENDOR_PARTNER)',
    ],
    [
      ['--id', 'x5', ...base, '--vendor', '--roles', 'ADMIN'],
      'error: --roles: ADMIN is not a vendor role (VENDOR_SUPPORT, VENDOR_OPERATIONS, VENDOR_PARTNER)',
    ],
    [['--id', 'x6', ...base, '--roles', 'VENDOR_SUPPORT'], 'error: --roles is for --vendor providers only'],
    [
      ['--id', 'x7', ...base, '--vendor', '--roles', 'BOSS'],
      'error: unknown role "BOSS" (1–7 or EMPLOYEE, MANAGER, VENDOR_SUPPORT, VENDOR_OPERATIONS, VENDOR_PARTNER, ADMIN, HR_ADMIN)',
    ],
    [
      ['--id', 'x8', ...base, '--trust-upstream-mfa', 'yes'],
      'error: --trust-upstream-mfa must be true or false',
    ],
    [['--id', 'contoso', ...base], 'error: identity provider "contoso" exists'],
  ])('add refuses %j and stores nothing', async (options, line) => {
    const before = (await admin.store.identityProviders.list()).length;
    expect(await admin.refused('idps', 'add', ...options)).toBe(line);
    expect(await admin.store.identityProviders.list()).toHaveLength(before);
  });

  describe('--token-auth-method against a discovery document (ADR 0064)', () => {
    let stub: TokenEndpointStub;
    let issuer = '';
    beforeAll(async () => {
      stub = await startTokenEndpoint(['client_secret_basic', 'client_secret_post']);
      issuer = stub.issuer;
    });
    afterAll(() => stub.close());

    const add = (id: string, ...more: string[]) => [
      'idps',
      'add',
      '--id',
      id,
      '--name',
      'Keys',
      '--issuer',
      issuer,
      '--client-id',
      'hr-identity',
      ...more,
    ];

    it('unset: the first of post, private_key_jwt, basic the provider lists, shown and kept as in use', async () => {
      const out = await admin.run(...add('auto1', '--client-secret', 's'));
      expect(out.split('\n')).toEqual([
        'identity provider auto1 added (login provider)',
        'token endpoint authentication: client_secret_post (from discovery: client_secret_basic, client_secret_post)',
      ]);
      expect(await admin.store.identityProviders.findById('auto1')).toMatchObject({
        tokenAuthMethod: undefined,
        tokenAuthMethodInUse: 'client_secret_post',
      });
      expect(await admin.run('idps', 'list')).toContain('token auth auto (in use: client_secret_post)');
    });

    it('private_key_jwt needs no secret and prints the JWKS URL to register', async () => {
      stub.setMethods(['client_secret_basic', 'private_key_jwt']);
      const out = await admin.run(...add('keys1', '--token-auth-method', 'private_key_jwt'));
      expect(out.split('\n')).toEqual([
        'identity provider keys1 added (login provider)',
        'token endpoint authentication: private_key_jwt (chosen)',
        'register its JWKS URL: http://localhost:8080/signin/keys1/jwks',
      ]);
      expect(await admin.store.identityProviders.findById('keys1')).toMatchObject({
        tokenAuthMethod: 'private_key_jwt',
        clientSecret: '',
      });
    });

    it('a method the provider does not list is refused, and nothing is stored or changed', async () => {
      stub.setMethods(['client_secret_basic']);
      expect(
        await admin.refused(
          ...add('post1', '--client-secret', 's', '--token-auth-method', 'client_secret_post'),
        ),
      ).toBe(
        'error: --token-auth-method: the provider does not list client_secret_post among its token endpoint methods (client_secret_basic)',
      );
      expect(await admin.store.identityProviders.findById('post1')).toBeUndefined();
      expect(
        await admin.refused('idps', 'update', '--id', 'auto1', '--token-auth-method', 'private_key_jwt'),
      ).toBe(
        'error: --token-auth-method: the provider does not list private_key_jwt among its token endpoint methods (client_secret_basic)',
      );
      expect((await admin.store.identityProviders.findById('auto1'))?.tokenAuthMethod).toBeUndefined();
      // auto again: chosen from discovery, now basic.
      expect(await admin.run('idps', 'update', '--id', 'auto1', '--token-auth-method', 'auto')).toBe(
        'identity provider auto1 updated\ntoken endpoint authentication: client_secret_basic (from discovery: client_secret_basic)',
      );
    });

    it('refuses an unknown method, and a missing secret unless private_key_jwt', async () => {
      expect(await admin.refused(...add('bad1', '--client-secret', 's', '--token-auth-method', 'tls'))).toBe(
        'error: --token-auth-method: "tls" is not one of client_secret_post, private_key_jwt, client_secret_basic, auto',
      );
      expect(await admin.refused(...add('bad2'))).toBe(
        'error: --client-secret is required unless --token-auth-method is private_key_jwt',
      );
      expect(
        await admin.refused('idps', 'update', '--id', 'keys1', '--token-auth-method', 'client_secret_basic'),
      ).toBe('error: --client-secret is required unless --token-auth-method is private_key_jwt');
    });
  });

  it('update and remove refuse an unknown id', async () => {
    expect(await admin.refused('idps', 'update', '--id', 'nobody', '--name', 'N')).toBe(
      'error: no identity provider "nobody"',
    );
    expect(await admin.refused('idps', 'remove', '--id', 'nobody')).toBe(
      'error: no identity provider "nobody"',
    );
  });

  it('remove deletes the provider and the identities linked through it', async () => {
    const user = await admin.store.users.create({ username: 'linked', passwordHash: null });
    await admin.store.externalLogins.link({
      issuer: 'https://accounts.google.example',
      subject: 's1',
      userId: user.id,
      providerId: 'google',
      securityStamp: user.securityStamp,
    });
    expect(await admin.run('idps', 'remove', '--id', 'google')).toBe('identity provider google removed');
    expect(await admin.store.identityProviders.findById('google')).toBeUndefined();
    expect(await admin.store.externalLogins.find('https://accounts.google.example', 's1')).toBeUndefined();
  });
});
