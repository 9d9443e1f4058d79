import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAdminHarness, type AdminHarness } from '../../testing/admin-harness.js';

describe('admin clients', () => {
  let admin: AdminHarness;
  beforeAll(async () => {
    admin = await openAdminHarness();
  });
  afterAll(async () => {
    await admin.close();
  });

  it('add registers a public PKCE client with its exact redirect, post-logout and back-channel URIs', async () => {
    const out = await admin.run(
      'clients',
      'add',
      '--id',
      'portal',
      '--name',
      'Portal',
      '--public',
      '--redirect-uri',
      'http://localhost:4000/callback,https://portal.example/callback',
      '--redirect-uri',
      'https://portal.example/other',
      '--post-logout-uri',
      'http://localhost:4000/',
      '--backchannel-logout-uri',
      'http://localhost:4000/backchannel-logout',
      '--initiate-login-uri',
      'http://localhost:4000/login',
    );
    expect(out).toBe('client portal added (public, PKCE)');
    expect(await admin.store.clients.findById('portal')).toEqual({
      clientId: 'portal',
      clientSecret: undefined,
      name: 'Portal',
      redirectUris: [
        'http://localhost:4000/callback',
        'https://portal.example/callback',
        'https://portal.example/other',
      ],
      postLogoutRedirectUris: ['http://localhost:4000/'],
      backchannelLogoutUri: 'http://localhost:4000/backchannel-logout',
      firstParty: true,
      initiateLoginUri: 'http://localhost:4000/login',
      disabled: false,
    });
    // The same record as the console's CreateApplication (ADR 0062), the CLI as actor.
    const [event] = await admin.store.audit.list({ kinds: ['console.applications.created'] });
    expect(event).toMatchObject({
      userId: null,
      data: { actor: expect.stringMatching(/^cli:/), subject: 'portal', reason: null, confidential: false },
    });
  });

  it('add registers a confidential third-party client whose secret is kept', async () => {
    expect(
      await admin.run(
        'clients',
        'add',
        '--id',
        'reports',
        '--name',
        'Reports',
        '--secret',
        'a-secret-of-16-chars',
        '--redirect-uri',
        'https://reports.example/cb',
        '--third-party',
      ),
    ).toBe('client reports added (confidential)');
    expect(await admin.store.clients.findById('reports')).toMatchObject({
      clientSecret: 'a-secret-of-16-chars',
      postLogoutRedirectUris: [],
      backchannelLogoutUri: undefined,
      firstParty: false,
    });
  });

  it.each([
    [['--public', '--secret', 'a-secret-of-16-chars'], 'error: give either --secret or --public'],
    [[], 'error: give --secret S for a confidential client or --public for a PKCE-only one'],
    [['--secret', 'too-short'], 'error: --secret must have at least 16 characters'],
    [
      ['--public', '--redirect-uri', 'javascript:alert(1)'],
      'error: --redirect-uri: "javascript:alert(1)" is not an http(s) URL',
    ],
    [
      ['--public', '--post-logout-uri', '/relative'],
      'error: --post-logout-uri: "/relative" is not an http(s) URL',
    ],
    [
      ['--public', '--backchannel-logout-uri', 'ftp://x.example/'],
      'error: --backchannel-logout-uri: "ftp://x.example/" is not an http(s) URL',
    ],
  ])('add refuses %j and registers nothing', async (options, line) => {
    const args = [
      'clients',
      'add',
      '--id',
      'bad',
      '--name',
      'Bad',
      '--redirect-uri',
      'https://bad.example/cb',
      ...options,
    ];
    expect(await admin.refused(...args)).toBe(line);
    expect(await admin.store.clients.findById('bad')).toBeUndefined();
  });

  it('add refuses a client id that is taken', async () => {
    expect(
      await admin.refused(
        'clients',
        'add',
        '--id',
        'portal',
        '--name',
        'P',
        '--public',
        '--redirect-uri',
        'https://p.example/cb',
      ),
    ).toBe('error: client already exists');
  });

  it('list shows id, name, kind and redirect URIs', async () => {
    const lines = (await admin.run('clients', 'list')).split('\n');
    expect(lines).toContain(
      'portal\tPortal\tpublic\thttp://localhost:4000/callback,https://portal.example/callback,https://portal.example/other',
    );
    expect(lines).toContain('reports\tReports\tconfidential\thttps://reports.example/cb');
  });
});
